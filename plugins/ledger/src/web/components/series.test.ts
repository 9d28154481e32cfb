import { describe, expect, it } from 'vitest';
import { carryForward } from './series';

describe('carryForward', () => {
  it('shows the last non-zero balance over months with balance 0', () => {
    expect(
      carryForward([
        { Date: '2026-01-01', Balance: 0 },
        { Date: '2026-02-01', Balance: 120.5 },
        { Date: '2026-03-01', Balance: 0 },
        { Date: '2026-04-01', Balance: -3 },
      ]).map((p) => p.Balance),
    ).toEqual([0, 120.5, 120.5, -3]);
  });
});
