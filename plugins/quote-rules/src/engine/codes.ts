import { CHECK_TEXTS, TERM_TYPE_TEXTS } from './texts';
import type { AnnuityType, TermType } from './types';

export function isLumpSum(type: AnnuityType | null): boolean {
  return type === 'LS' || type === 'LL';
}

export function isLifeOnly(type: AnnuityType | null): boolean {
  return type === 'LO';
}

export function isPeriodCertain(type: AnnuityType | null): boolean {
  return type === 'CL' || type === 'PC';
}

/** Period certain and temp life are the types whose term is chosen, so bounded and required (spec 02 section 5). */
export function hasTerm(type: AnnuityType | null): boolean {
  return isPeriodCertain(type) || type === 'TL';
}

/** Names for the '{type} term(s) not accepted' message, from the spec's words for the codes. */
export const TERM_TYPE_NAMES: Readonly<Record<TermType, string>> = {
  A: CHECK_TEXTS[TERM_TYPE_TEXTS.A],
  S: CHECK_TEXTS[TERM_TYPE_TEXTS.S],
  Q: CHECK_TEXTS[TERM_TYPE_TEXTS.Q],
  M: CHECK_TEXTS[TERM_TYPE_TEXTS.M],
  B: CHECK_TEXTS[TERM_TYPE_TEXTS.B],
  W: CHECK_TEXTS[TERM_TYPE_TEXTS.W],
};
