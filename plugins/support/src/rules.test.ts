import { describe, expect, it } from 'vitest';
import { keepsIdempotencyKey, rowActions } from './rules';

describe("a money dialog's idempotency key", () => {
  it('is spent by a definite answer, so pressing again after a decline or a refusal is a new request', () => {
    expect(keepsIdempotencyKey({ answered: true })).toBe(false);
    for (const status of [400, 403, 404, 409]) expect(keepsIdempotencyKey({ answered: false, status }), String(status)).toBe(false);
  });

  it('is kept when no answer came or the outcome is unknown, so the retry moves money at most once', () => {
    for (const status of [0, 500, 502, 503, 504]) expect(keepsIdempotencyKey({ answered: false, status }), String(status)).toBe(true);
  });
});

describe("a transaction row's actions", () => {
  it('offers Charge on a declined charge but not on a declined membership payment, which the subscription change replaces', () => {
    expect(rowActions('Declined', 'charge').charge).toBe(true);
    expect(rowActions('Declined', 'subscription').charge).toBe(false);
    expect(rowActions('Pending', 'subscription')).toMatchObject({ charge: true, decline: true });
  });
});
