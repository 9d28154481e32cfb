import { isEnvelope } from '@portal/core';
import { ApiCallError } from '@portal/web';
import { type DuplicateRequest, duplicateRequestSchema } from '../../contract';

/**
 * What a file that could not be sent shows beside it (spec 02 section 8: 'An unexpected error has occured.' on
 * failure, the response's MsgText otherwise). A refusal the server worded (a 4xx, or a HasError answer, whose MsgText is
 * in the user's language) shows that message; every failure without a server message shows `unexpected`: the network
 * (status 0, also when the uploader's chunk retries run out), a server error (5xx), an answer that is no envelope (a
 * proxy's page), a session that ended, anything thrown that is no call's failure.
 */
export function failureText(error: unknown, unexpected: string): string {
  if (!(error instanceof ApiCallError) || error.status === 0 || error.status >= 500) return unexpected;
  const body = error.body;
  return isEnvelope(body) && typeof body.MsgText === 'string' && body.MsgText.trim() !== '' ? body.MsgText : unexpected;
}

/**
 * The earlier request a create's 409 says this one looks like (the same service date and amount, or the same file), or
 * null for any other failure: the page then asks "Send anyway?" and sends the file again with AllowDuplicate.
 */
export function duplicateOf(error: unknown): DuplicateRequest | null {
  if (!(error instanceof ApiCallError) || error.status !== 409 || !isEnvelope(error.body)) return null;
  const parsed = duplicateRequestSchema.safeParse(error.body.Data);
  return parsed.success ? parsed.data : null;
}
