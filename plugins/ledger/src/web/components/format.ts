import { dayIn, formatCurrency, formatIsoDayText, toIsoDate } from '@portal/core';
import type { TFunction } from 'i18next';
import { DefaultRange, type LedgerMessage, LedgerMessages } from '../../rules';

/** Dollars on the wire to text in the current language; empty for null. */
export const money = (dollars: number | null | undefined): string => (dollars === null || dollars === undefined ? '' : formatCurrency(dollars));

/** Each rule's refusal to the rule's name, which names the web's text of it (`rules.<name>`). */
const RULE_NAMES: ReadonlyMap<string, string> = new Map(Object.entries(LedgerMessages).map(([name, message]) => [message, name]));
/**
 * The refusal of the page's own rule check (checkLedgerEntry, checkBalance) in the user's language. It takes only
 * a rule's refusal, never a server text: the server answers in the user's language itself, and the page learns the
 * server's outcomes from statuses and data, not from its words.
 */
export const ruleText = (t: TFunction, message: LedgerMessage): string => t(`rules.${RULE_NAMES.get(message)}`);

/** 'YYYY-MM-DD' as a medium day in the current language ('Jan 31, 2024' / '31 ene 2024'); empty for none. */
export const day = (iso: string | null | undefined): string => formatIsoDayText(iso);
/**
 * Today in the member's own time zone, 'YYYY-MM-DD': the day `now` falls on where the page runs (the browser's zone),
 * never the UTC day (in a US evening that is already tomorrow). `zone`: the day in that IANA zone instead.
 */
export const localToday = (now: Date = new Date(), zone?: string): string => (zone ? dayIn(zone, now) : toIsoDate(now));
/** A list page's default range (spec 02 section 9, `DefaultRange`) ending on the member's today (`localToday`). */
export const localDefaultRange = (kind: keyof typeof DefaultRange, now: Date = new Date(), zone?: string): { From: string; To: string } =>
  DefaultRange[kind](localToday(now, zone));
