import { defineEndpoint, specText } from '@portal/core';
import { z } from 'zod';

/** Searches start at this many characters (spec 02 section 5). */
export const PRICE_SEARCH_MIN = 3;
export const PRICE_SEARCH_MAX = 60;
/**
 * The page shows at most this many lines, best match first. The answer carries one more when there are more (so at most
 * PRICE_RESULTS_MAX + 1 lines): the page then shows the first PRICE_RESULTS_MAX and asks for a narrower search, rather
 * than saying "50 lines found" when thousands match. The spec fixes the answer as a bare list of lines (02 section 7),
 * so "there are more" rides on the list's length, not on another field; the web client reads no answer headers.
 */
export const PRICE_RESULTS_MAX = 50;
/** The lines a search answers at most: one past what the page shows, to tell it there are more. */
export const PRICE_RESULTS_FETCH = PRICE_RESULTS_MAX + 1;
/**
 * A dot in the search text is sent as this placeholder (spec 02 section 5): a dot in a path segment is
 * normalised away by proxies ('.', '..') and read as an extension by others. The server turns it back.
 */
export const DOT_PLACEHOLDER = '__dot__';
/** Units on a new line (spec 02 section 3). */
export const DEFAULT_UNITS = 30;

export const encodePriceSearch = (text: string) => text.replace(/\./g, DOT_PLACEHOLDER);
export const decodePriceSearch = (text: string) => text.split(DOT_PLACEHOLDER).join('.');

export const priceParams = z.object({
  text: z
    .string()
    .transform(decodePriceSearch)
    .pipe(
      z
        .string()
        .trim()
        .min(PRICE_SEARCH_MIN, specText('Minimum {{min}} characters are required', { min: PRICE_SEARCH_MIN }))
        .max(PRICE_SEARCH_MAX),
    ),
});

/** A line of the price list; prices per unit in dollars (the database keeps integer cents). */
export const priceLineSchema = z.object({
  Code: z.string(),
  Description: z.string(),
  OurPrice: z.number().nonnegative(),
  AWPPrice: z.number().nonnegative(),
});
export type PriceLine = z.infer<typeof priceLineSchema>;

export const PriceFinderApi = {
  /** Lines whose description or code holds every word of the text, best match first; PRICE_RESULTS_FETCH at most. */
  search: defineEndpoint({
    method: 'GET',
    path: '/api/dashboard/getPrices/:text',
    params: priceParams,
    response: z.array(priceLineSchema).max(PRICE_RESULTS_FETCH),
  }),
} as const;
