/** The server envelope every /api response travels in (spec 01 section 3). */
export interface Envelope<T> {
  Data: T;
  /** When true the client hands only Data to the caller. */
  Unwrap: boolean;
  /** A message for the user; shown as a toast when Unwrap is set. */
  MsgText: string | null;
  /** When true the call is a failure, whatever the HTTP status. */
  HasError: boolean;
}

export function ok<T>(data: T, msgText: string | null = null): Envelope<T> {
  return { Data: data, Unwrap: true, MsgText: msgText, HasError: false };
}

export function fail(msgText: string, data: unknown = null): Envelope<unknown> {
  return { Data: data, Unwrap: true, MsgText: msgText, HasError: true };
}

export function isEnvelope(value: unknown): value is Envelope<unknown> {
  return (
    typeof value === 'object' && value !== null && 'HasError' in value && 'Data' in value && typeof (value as { HasError: unknown }).HasError === 'boolean'
  );
}

/** A remote grid page (spec 01 section 3). */
export interface GridResult<T> {
  Items: T[];
  ItemCount: number;
}
