import { ClaimStatus } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { claimStatusLabel, nextStatusLabel } from './claimStatus';

// The lookup cache's names as a Spanish page shows them.
const spanish = new Map<number, string>([
  [1, 'Recibida'],
  [ClaimStatus.Paid, 'Pagada'],
  [29, 'Pagada (cheque)'],
]);

describe("the support claim panel's status names", () => {
  it("names a bill's status in the page's language from the lookups, a paid one as Paid", () => {
    expect(claimStatusLabel(spanish, 1)).toBe('Recibida');
    expect(claimStatusLabel(spanish, 29)).toBe('Pagada');
    expect(claimStatusLabel(new Map(), 1)).toBe('1');
  });

  it('names a status to move to by its own translated name', () => {
    expect(nextStatusLabel(spanish, 29)).toBe('Pagada (cheque)');
    expect(nextStatusLabel(spanish, 1)).toBe('Recibida');
  });
});
