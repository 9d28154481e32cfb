/** Test card numbers of the sandbox card gateway and the checks every number goes through. */

/** Luhn (mod 10) check of a string of digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * 'chargeDecline': the card saves (its validation passes) but every charge on it is declined. 'review': the card saves
 * and every charge on it is held for review by the fraud filters (response code 4) until the merchant approves or
 * declines it.
 */
export type CardOutcome = 'approve' | 'decline' | 'cvv' | 'expired' | 'chargeDecline' | 'review';

/**
 * The test numbers (all Luhn-valid). Any other Luhn-valid number is approved, like the real sandbox; a number
 * failing Luhn is refused before anything else.
 */
export const TEST_CARDS: Readonly<Record<string, CardOutcome>> = {
  '4111111111111111': 'approve',
  '5424000000000015': 'approve',
  '370000000000002': 'approve',
  '4000000000000002': 'decline',
  '4000000000000101': 'cvv',
  '4000000000000069': 'expired',
  '4000000000000341': 'chargeDecline',
  '4000000000000259': 'review',
};

export const GATEWAY_MESSAGES = {
  approved: 'This transaction has been approved.',
  declined: 'This transaction has been declined.',
  invalidNumber: 'The credit card number is invalid.',
  expired: 'The credit card has expired.',
  invalidExpiry: 'The credit card expiration date is invalid.',
  cvv: 'The card code is invalid.',
  notSettled: 'The referenced transaction does not meet the criteria for issuing a credit.',
  voidNotAllowed: 'The referenced transaction cannot be voided.',
  captureNotAllowed: 'The referenced transaction is not authorized for capture.',
  refundTooLarge: 'The sum of credits against the referenced transaction would exceed the original debit amount.',
  notFound: 'The referenced transaction was not found.',
  profileNotFound: 'The payment profile was not found.',
  heldForReview: 'This transaction is being held for review.',
  notHeld: 'The transaction is not held for review.',
  startDateBeforeToday: 'Start Date must not occur before the submission date.',
  startDateLifetime: 'A subscription with a single payment cannot start later.',
} as const;

export function cardBrand(digits: string): string {
  if (digits.startsWith('4')) return 'Visa';
  if (/^5[1-5]/.test(digits) || /^2[2-7]/.test(digits)) return 'MasterCard';
  if (/^3[47]/.test(digits)) return 'AmericanExpress';
  if (/^6(011|5)/.test(digits)) return 'Discover';
  return 'Card';
}

export interface CardInput {
  cardNumber: string;
  expMonth: number;
  expYear: number;
  cvv: string;
}

/** The checks a card goes through when it is saved (a zero-amount validation) and when it is charged. */
export function checkCard(card: CardInput, now = new Date()): { ok: true } | { ok: false; code: keyof typeof GATEWAY_MESSAGES } {
  const digits = card.cardNumber.replace(/[\s-]/g, '');
  if (!luhnValid(digits)) return { ok: false, code: 'invalidNumber' };
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12 || !Number.isInteger(card.expYear))
    return { ok: false, code: 'invalidExpiry' };
  const lastDay = new Date(Date.UTC(card.expYear, card.expMonth, 0, 23, 59, 59));
  if (lastDay < now) return { ok: false, code: 'expired' };
  if (!/^\d{3,4}$/.test(card.cvv)) return { ok: false, code: 'cvv' };
  const outcome = TEST_CARDS[digits] ?? 'approve';
  if (outcome === 'chargeDecline' || outcome === 'review') return { ok: true };
  if (outcome === 'decline') return { ok: false, code: 'declined' };
  if (outcome === 'cvv') return { ok: false, code: 'cvv' };
  if (outcome === 'expired') return { ok: false, code: 'expired' };
  return { ok: true };
}

/** The outcome of charging a stored card number (the number is all the gateway keeps to decide). */
export function chargeOutcome(cardNumber: string): CardOutcome {
  return TEST_CARDS[cardNumber] ?? 'approve';
}
