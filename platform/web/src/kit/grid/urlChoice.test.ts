import { describe, expect, it } from 'vitest';
import { readChoice, writeChoice } from './urlChoice';

const STATUSES = ['All', 'Declined', 'Authorized', 'PA Number'] as const;

describe('a list filter kept in the query string', () => {
  it('reads a known choice, and the fallback for an absent, unknown or differently cased one', () => {
    const read = (q: string) => readChoice(new URLSearchParams(q), 'status', STATUSES, 'Declined');
    expect(read('status=Authorized')).toBe('Authorized');
    expect(read('status=PA+Number')).toBe('PA Number');
    expect(read('')).toBe('Declined');
    expect(read('status=Refunded')).toBe('Declined');
    expect(read('status=authorized')).toBe('Declined');
  });

  it("writes the choice beside the grid's own parameters and leaves the fallback out", () => {
    const params = new URLSearchParams('g.page=2&g.q=ann');
    expect(writeChoice(params, 'status', 'Authorized', 'Declined').toString()).toBe('g.page=2&g.q=ann&status=Authorized');
    expect(writeChoice(new URLSearchParams('status=Authorized&g.page=2'), 'status', 'Declined', 'Declined').toString()).toBe('g.page=2');
    // The params it was given are not changed.
    expect(params.toString()).toBe('g.page=2&g.q=ann');
  });
});
