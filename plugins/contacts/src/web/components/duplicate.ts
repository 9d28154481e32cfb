import { isEnvelope } from '@portal/core';
import { contactDuplicateSchema } from '../../contract';

/**
 * The contact a refused save says the member already has (a 409 whose Data names it: the same type, name and e-mail or
 * phone), else null. A stale Version's 409 names none: that one is said with a Reload; a duplicate is a refusal like
 * any other (the client's toast of the server's words), since reloading would not change it.
 */
export function duplicateOf(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, body } = error as { status?: unknown; body?: unknown };
  if (status !== 409 || !isEnvelope(body)) return null;
  const parsed = contactDuplicateSchema.safeParse(body.Data);
  return parsed.success ? parsed.data.DuplicateContactID : null;
}
