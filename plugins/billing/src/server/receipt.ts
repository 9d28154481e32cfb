import { dayIn, formatCents, formatIsoDayText, type Language, localeOf } from '@portal/core';

/**
 * What a receipt mail says of its money and day, in the member's language: the amount as every page writes dollars
 * ('$1,000.00', grouped, `formatCents`), and the day written as the business's day (`config.businessTimeZone`) of the
 * moment `at`, never the server's UTC day (a payment at 8:30 pm in Chicago on 03/10 is already 03/11 in UTC).
 */
export function receiptFigures(amountCents: number, language: Language, businessTimeZone: string, at: Date = new Date()): { amount: string; day: string } {
  const locale = localeOf(language);
  return { amount: formatCents(amountCents, locale), day: formatIsoDayText(dayIn(businessTimeZone, at), 'medium', locale) };
}

/**
 * The values of the capture limit's refusal ('Amount: must be at most the authorized {{amount}}'): the authorized amount
 * grouped as the pages write it. The message is translated on its way out, after this; English and US Spanish write
 * dollars alike ('$1,500.00'), so the English locale serves both.
 */
export const capturedAtMost = (authorizedCents: number) => ({ amount: formatCents(authorizedCents, localeOf('en')) });
