import { idSchema } from '@portal/core';

/**
 * The quote the address names: /quotes is a new one (null), /quotes/:id a saved one by its id (a positive whole
 * number). Anything else ('/quotes/abc', '/quotes/0') names no quote: 'invalid', which the page says is not found; it
 * is never asked for, so its query would stay pending (and the page loading) for ever.
 */
export function quoteIdOf(param: string | undefined): number | null | 'invalid' {
  if (param === undefined) return null;
  const parsed = idSchema.safeParse(param);
  return parsed.success ? parsed.data : 'invalid';
}
