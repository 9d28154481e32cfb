/**
 * The sandbox bank aggregator's data: a few hundred institutions generated deterministically (names, addresses
 * and login forms as data), the test credentials and their outcomes, and the transactions a refresh adds.
 */

export type FieldType = 'text' | 'password' | 'option';
export interface FormField {
  id: string;
  name: string;
  label: string;
  type: FieldType;
  value: string;
  options?: { label: string; value: string }[];
  maxLength?: number;
}
export interface LoginForm {
  formId: string;
  label: string;
  /** 'login' for an institution's sign-in form; 'question', 'code' or 'choice' for a multi-factor step. */
  formType: 'login' | 'question' | 'code' | 'choice';
  fields: FormField[];
}
export interface Institution {
  id: number;
  name: string;
  url: string;
  favicon: string;
  logo: string;
  popular: boolean;
  form: LoginForm;
}

const FIRST = [
  'First',
  'Citizens',
  'Peoples',
  'Union',
  'Heritage',
  'Summit',
  'Liberty',
  'Pioneer',
  'Frontier',
  'Harbor',
  'Granite',
  'Prairie',
  'Evergreen',
  'Cedar',
  'Riverside',
  'Lakeside',
  'Golden',
  'Patriot',
  'Keystone',
  'Sunrise',
];
const SECOND = [
  'National',
  'Community',
  'Savings',
  'Federal',
  'State',
  'Valley',
  'Mountain',
  'Coastal',
  'Trust',
  'Capital',
  'Mutual',
  'Farmers',
  'Commerce',
  'Home',
  'United',
];
const KIND = ['Bank', 'Credit Union', 'Savings Bank'];

/** The eight institutions listed as popular (site/popular), ids 101 to 108. */
const POPULAR = [
  'Dag Site Bank',
  'Amethyst National Bank',
  'Bank of the Republic',
  'Chase Harbor Bank',
  'Wells Prairie Bank',
  'Citizens Federal Credit Union',
  'Capital Trust Bank',
  'Pacific Coast Savings',
];

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Three kinds of login form, picked per institution by its id. */
function loginFormFor(id: number): LoginForm {
  const user: FormField = { id: `${id}-login`, name: 'LOGIN', label: 'User ID', type: 'text', value: '', maxLength: 64 };
  const pass: FormField = { id: `${id}-password`, name: 'PASSWORD', label: 'Password', type: 'password', value: '', maxLength: 64 };
  switch (id % 3) {
    case 1:
      return {
        formId: `login-${id}`,
        label: 'Sign in with your online banking user ID',
        formType: 'login',
        fields: [{ ...user, label: 'Online banking user ID' }, pass],
      };
    case 2:
      return {
        formId: `login-${id}`,
        label: 'Sign in',
        formType: 'login',
        fields: [user, pass, { id: `${id}-pin`, name: 'PIN', label: 'PIN (optional)', type: 'password', value: '', maxLength: 8 }],
      };
    default:
      return { formId: `login-${id}`, label: 'Sign in', formType: 'login', fields: [{ ...user, label: 'User name' }, pass] };
  }
}

function institution(id: number, name: string, popular: boolean): Institution {
  const host = `www.${slug(name)}.example`;
  return {
    id,
    name,
    url: `https://${host}/`,
    favicon: `https://${host}/favicon.ico`,
    logo: `https://${host}/logo.png`,
    popular,
    form: loginFormFor(id),
  };
}

/** Every institution: the eight popular ones, then FIRST x SECOND x KIND in a fixed order (ids from 1001). */
export const INSTITUTIONS: readonly Institution[] = (() => {
  const out = POPULAR.map((name, i) => institution(101 + i, name, true));
  let id = 1001;
  for (const a of FIRST) for (const b of SECOND) out.push(institution(id++, `${a} ${b} ${KIND[(id + a.length) % KIND.length]}`, false));
  return out;
})();

const BY_ID = new Map(INSTITUTIONS.map((i) => [i.id, i]));
export const institutionById = (id: number): Institution | undefined => BY_ID.get(id);

/** Multi-factor steps a test user is asked for, in order; each with the answer that passes it. */
export interface MfaStep {
  form: LoginForm;
  answer: string;
}
const QUESTION: MfaStep = {
  form: {
    formId: 'mfa-question',
    label: 'Security question',
    formType: 'question',
    fields: [{ id: 'mfa-question-1', name: 'ANSWER', label: 'What was the name of your first pet?', type: 'text', value: '' }],
  },
  answer: 'rex',
};
const CODE: MfaStep = {
  form: {
    formId: 'mfa-code',
    label: 'We sent a code to your phone',
    formType: 'code',
    fields: [{ id: 'mfa-code-1', name: 'TOKEN', label: 'Verification code', type: 'text', value: '', maxLength: 6 }],
  },
  answer: '123456',
};
const CHOICE: MfaStep = {
  form: {
    formId: 'mfa-choice',
    label: 'Choose your secret image',
    formType: 'choice',
    fields: [
      {
        id: 'mfa-choice-1',
        name: 'IMAGE',
        label: 'Which image did you choose when you enrolled?',
        type: 'option',
        value: '',
        options: [
          { label: 'A lighthouse', value: 'lighthouse' },
          { label: 'A sailboat', value: 'sailboat' },
          { label: 'A mountain', value: 'mountain' },
        ],
      },
    ],
  },
  answer: 'sailboat',
};

/**
 * The test credentials (any institution). The password is 'bank123' for every user name; a wrong password, or a
 * user name not listed, FAILS. 'stale' links fine and then goes stale at its first refresh: update its
 * credentials with the new password 'bank456'.
 */
export const TEST_PASSWORD = 'bank123';
export const STALE_NEW_PASSWORD = 'bank456';
export const TEST_USERS: Readonly<Record<string, { steps: MfaStep[]; stale?: boolean; note: string }>> = {
  good: { steps: [], note: 'links at once' },
  question: { steps: [QUESTION], note: `one step: a security question (answer "${QUESTION.answer}")` },
  code: { steps: [CODE], note: `one step: a code (enter ${CODE.answer})` },
  choice: { steps: [CHOICE], note: `one step: a choice (pick "A sailboat")` },
  twostep: { steps: [QUESTION, CODE], note: `two steps: the question ("${QUESTION.answer}"), then the code (${CODE.answer})` },
  stale: { steps: [], stale: true, note: `links, then its credentials go stale at the first refresh: update them with password "${STALE_NEW_PASSWORD}"` },
};
export const FAIL_MESSAGE = 'The user ID or password you entered is not correct. Please check them and try again.';
export const MFA_FAIL_MESSAGE = 'The answer you entered is not correct.';
export const STALE_MESSAGE = 'Your credentials for this institution have changed. Please update them.';

/** The value of the field named name (case-insensitive) in a submitted form. */
export function fieldValue(form: { fields: { name: string; value: string }[] } | undefined, name: string): string {
  return form?.fields.find((f) => f.name.toUpperCase() === name.toUpperCase())?.value?.trim() ?? '';
}

/** A small deterministic generator, so a link's accounts and transactions are the same on every run. */
export function stream(seed: number): () => number {
  let s = seed % 2147483647 || 1;
  return () => {
    s = (s * 48271) % 2147483647;
    return s / 2147483647;
  };
}

const MERCHANTS = [
  'Grocery Mart',
  'City Pharmacy',
  'Fuel Stop',
  'Payroll Deposit',
  'Electric Utility',
  'Coffee House',
  'Online Store',
  'Transfer',
  'Clinic Copay',
  'ATM Withdrawal',
];

/** Transactions a refresh adds: one to three, dated day (YYYY-MM-DD). Amounts in cents, debits negative. */
export function newTransactions(random: () => number, day: string): { date: string; description: string; amountCents: number }[] {
  const n = 1 + Math.floor(random() * 3);
  return Array.from({ length: n }, () => {
    const merchant = MERCHANTS[Math.floor(random() * MERCHANTS.length)] ?? 'Transfer';
    const credit = merchant === 'Payroll Deposit';
    const cents = credit ? 150_000 + Math.floor(random() * 100_000) : 500 + Math.floor(random() * 15_000);
    return { date: day, description: merchant, amountCents: credit ? cents : -cents };
  });
}
