/** A new idempotency key: the prefix (which kind of record) and a UUID. */
export const newCreateKey = (prefix = 'create'): string => `${prefix}-${crypto.randomUUID()}`;

/**
 * The IdempotencyKey of each submission of a create form. Saving the same record again (a retry after a failure,
 * whose answer may have been lost after the server added it) sends the key it was sent with, so the server answers the
 * record that submission added instead of adding a second one; a record changed before it is saved again is another
 * submission, with a new key. Once a record was added, the next save is a new record, even with the same values.
 */
export class SubmissionKeys {
  private last: { body: string; key: string } | null = null;

  constructor(private readonly newKey: () => string = () => newCreateKey()) {}

  /** The key to send with this payload: the last submission's while the payload is the same, a new one otherwise. */
  keyFor(payload: unknown): string {
    const body = JSON.stringify(payload);
    if (this.last?.body !== body) this.last = { body, key: this.newKey() };
    return this.last.key;
  }

  /** The record was added: forget its key. */
  added(): void {
    this.last = null;
  }
}
