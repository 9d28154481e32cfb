import { msg, type Text } from '@portal/core';
import type { TermType } from './types';

/**
 * The words of the company checks (spec 02 section 5, word for word), by key; `{{name}}` marks a value. A check
 * words its rule as a key and values (a CheckText), so each side says it in the user's language: the server
 * through its catalogue (keyed by these English texts), the browser through its own (`checkText.<key>`). The
 * result's `message` is the English.
 */
export const CHECK_TEXTS = {
  nonQualAccepted: 'Non-qualified cases accepted',
  nonQualRefused: 'Non-qualified cases not accepted',
  maxAge: 'Age must not exceed {{age}}',
  minDeferral: 'Benefits must start on or after {{date}} (purchase date plus {{period}})',
  minLumpSumDeferral: 'Lump sums must start on or after {{date}} (purchase date plus {{period}})',
  maxLumpSumDeferral: 'Lump sums must start on or before {{date}} (purchase date plus {{period}})',
  maxDeferral: 'At least one benefit must start on or before {{date}} (purchase date plus {{period}})',
  minPayment: 'Payment must be at least {{amount}}',
  maxLumpSumAmount: 'Lump sum payment must not exceed {{amount}}',
  minPremium: 'Total cost must be at least {{amount}}',
  maxPremium: 'Total cost must not exceed {{amount}}',
  minPremiumMsa: 'MSA Amount must be at least {{amount}}',
  maxPremiumMsa: 'MSA Amount must not exceed {{amount}}',
  minLumpSumCount: 'At least {{number}} lump sums required',
  maxGuarantee: 'Guarantee period must not exceed {{years}}',
  minTerm: 'Term must be at least {{years}}',
  maxTerm: 'Term must not exceed {{years}}',
  termTypesAccepted: '{{types}} term(s) accepted',
  termTypesRefused: '{{types}} term(s) not accepted',
  maxCola: 'COLA must be less than {{percent}}%',
  /** Not in the spec: a rule the company sets that the quote lacks the data to check (the company is not counted as accepting). */
  notCheckedAge: 'Not checked: age missing',
  notCheckedPurchaseDate: 'Not checked: purchase date missing',
  notCheckedStartDate: 'Not checked: start date missing',
  notCheckedPayment: 'Not checked: payment missing',
  notCheckedPremium: 'Not checked: premium missing',
  day: '{{number}} day',
  days: '{{number}} days',
  month: '{{number}} month',
  months: '{{number}} months',
  year: '{{number}} year',
  years: '{{number}} years',
  /** Names joined: 'Annual, Monthly'. */
  list: '{{list}}, {{next}}',
  annual: 'Annual',
  semiAnnual: 'Semi-annual',
  quarterly: 'Quarterly',
  monthly: 'Monthly',
  biweekly: 'Biweekly',
  weekly: 'Weekly',
} as const;

export type CheckTextKey = keyof typeof CHECK_TEXTS;

/** A check's words as data: the key of its English text and the values in it (a value may be words too). Stored and sent as JSON. */
export interface CheckText {
  key: CheckTextKey;
  params?: { [name: string]: string | number | CheckText };
}

export const checkText = (key: CheckTextKey, params?: CheckText['params']): CheckText => (params ? { key, params } : { key });

/** The words as a message for the server's catalogue (values that are words go with it, translated with it). */
export function textOf(words: CheckText): Text {
  const params: Record<string, string | number | Text> = {};
  for (const [name, value] of Object.entries(words.params ?? {})) params[name] = typeof value === 'object' ? textOf(value) : value;
  return msg(CHECK_TEXTS[words.key], params);
}

/** The spec's English of the words. */
export const english = (words: CheckText): string => String(textOf(words));

/** The words for a term type's name. */
export const TERM_TYPE_TEXTS: Readonly<Record<TermType, CheckTextKey>> = {
  A: 'annual',
  S: 'semiAnnual',
  Q: 'quarterly',
  M: 'monthly',
  B: 'biweekly',
  W: 'weekly',
};

/** Words joined by commas; empty for none. */
export function listOf(items: readonly CheckText[]): CheckText | string {
  const [first, ...rest] = items;
  if (!first) return '';
  return rest.reduce<CheckText>((list, next) => checkText('list', { list, next }), first);
}

/** '1 day', '30 days' (and months, years) as words. */
export function periodOf(amount: number, unit: 'day' | 'month' | 'year'): CheckText {
  return checkText(amount === 1 ? unit : `${unit}s`, { number: amount });
}
