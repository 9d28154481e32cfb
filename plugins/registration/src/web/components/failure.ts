import { ApiCallError } from '@portal/web';

/** The text of a failed call for the page, or null when nothing failed (the calls here go out with notify: false, no toast). */
export const failureText = (e: unknown): string | null => (e === null || e === undefined ? null : e instanceof Error ? e.message : String(e));

/** A failed save as the step shows it: stale (409, someone else saved first) keeps the typed values and offers a reload. */
export interface SaveFailure {
  stale: boolean;
  message: string;
}

export const saveFailureOf = (e: unknown): SaveFailure => ({
  stale: e instanceof ApiCallError && e.status === 409,
  message: failureText(e) ?? '',
});
