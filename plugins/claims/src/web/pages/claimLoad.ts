/**
 * What a failed load of a bill means to the user. The server answers 404 for a bill that does not exist and for one
 * the caller may not see (it does not say which): "not found". Anything else (a 5xx, no answer, an ended session) says
 * nothing about the bill: the page's load error, which a retry may cure. The status is the one ApiCallError carries.
 */
export function claimLoadFailure(error: unknown): 'notFound' | 'loadError' {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  return status === 404 ? 'notFound' : 'loadError';
}
