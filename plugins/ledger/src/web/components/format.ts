import { dayOfLocalDate, formatCurrency, formatDay, formatIsoDay, parseIsoDay } from '@portal/core';
import type { TFunction } from 'i18next';
import { LedgerMessages, PayerMessages } from '../../rules';

/** Dollars on the wire to text in the current language; empty for null. */
export const money = (dollars: number | null | undefined): string => (dollars === null || dollars === undefined ? '' : formatCurrency(dollars));

const MESSAGE_KEYS: Record<string, string> = {
  [LedgerMessages.futureDate]: 'rules.futureDate',
  [LedgerMessages.type]: 'rules.type',
  [LedgerMessages.amount]: 'rules.amount',
  [LedgerMessages.description]: 'rules.description',
  [LedgerMessages.amountNumber]: 'rules.amountNumber',
  [LedgerMessages.balanceNumber]: 'rules.balanceNumber',
  [LedgerMessages.invalidDate]: 'rules.invalidDate',
  [LedgerMessages.amountCents]: 'rules.amountCents',
  [LedgerMessages.balanceCents]: 'rules.balanceCents',
  [LedgerMessages.balanceSet]: 'rules.balanceSet',
  [PayerMessages.sent]: 'payer.sent',
  [PayerMessages.alreadySent]: 'payer.alreadySent',
  [PayerMessages.error]: 'payer.error',
  [PayerMessages.incomplete]: 'payer.incomplete',
};
/** A rule's or the payer's message in the user's language; other server text as it came. */
export const ruleText = (t: TFunction, message: string): string => {
  const key = MESSAGE_KEYS[message];
  return key ? t(key) : message;
};

/** 'YYYY-MM-DD' as a medium day in the current language ('Jan 31, 2024' / '31 ene 2024'). */
export const day = (iso: string): string => {
  const d = parseIsoDay(iso);
  return d ? formatDay(d, 'medium') : iso;
};
/** Today in the member's own time zone, 'YYYY-MM-DD'. */
export const localToday = (): string => formatIsoDay(dayOfLocalDate(new Date()));
