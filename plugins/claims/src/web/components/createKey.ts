/** A new IdempotencyKey: `claim-` and a UUID. */
export const newIdempotencyKey = (): string => `claim-${crypto.randomUUID()}`;

/**
 * The IdempotencyKey of each submission of the new-bill form. Saving the same bill again (a retry after a failure,
 * whose answer may have been lost after the server added the bill) sends the key it was sent with, so the server answers
 * the bill that submission added instead of adding a second one; a bill changed before it is saved again is another
 * submission, with a new key. Once a bill was added, the next save is a new bill, even with the same values.
 */
export class SubmissionKeys {
  private last: { body: string; key: string } | null = null;

  constructor(private readonly newKey: () => string = newIdempotencyKey) {}

  /** The key to send with this payload: the last submission's while the payload is the same, a new one otherwise. */
  keyFor(payload: unknown): string {
    const body = JSON.stringify(payload);
    if (this.last?.body !== body) this.last = { body, key: this.newKey() };
    return this.last.key;
  }

  /** The bill was added: forget its key. */
  added(): void {
    this.last = null;
  }
}
