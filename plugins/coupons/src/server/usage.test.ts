import type { SqlClient } from '@portal/server';
import { describe, expect, it } from 'vitest';
import type { CouponUsage } from '../service';
import { makeCouponsService } from './service';

/** The coupons service's side of CouponUsage: the answers plugins add (billing's), asked for a list of codes. */
const noDatabase = {} as SqlClient;
const usage = (counts: Record<string, number>, seen: unknown[] = []): CouponUsage => ({
  membersUsing: async (codes, tx) => {
    seen.push(tx);
    return new Map(codes.filter((c) => c in counts).map((c) => [c, counts[c] ?? 0]));
  },
});

describe('which coupons are in use (CouponUsage)', () => {
  it('finds none in use while no plugin added an answer (a site without billing deletes as before)', async () => {
    const service = makeCouponsService(noDatabase, 'UTC');
    expect(await service.membersUsing(['A-1', 'B-2'])).toEqual(
      new Map([
        ['A-1', 0],
        ['B-2', 0],
      ]),
    );
  });

  it("adds up the plugins' counts per code as given, 0 for a code nobody uses, and asks in the caller's transaction", async () => {
    const service = makeCouponsService(noDatabase, 'UTC');
    const seen: unknown[] = [];
    service.addCouponUsage(usage({ 'A-1': 2 }, seen));
    service.addCouponUsage(usage({ 'A-1': 1, 'B-2': 3, 'NOT-ASKED': 9 }, seen));
    const tx = { name: 'the delete transaction' } as unknown as SqlClient;
    expect(await service.membersUsing(['A-1', 'B-2', 'C-3'], tx)).toEqual(
      new Map([
        ['A-1', 3],
        ['B-2', 3],
        ['C-3', 0],
      ]),
    );
    expect(seen).toEqual([tx, tx]);
  });

  it('asks no plugin for an empty list', async () => {
    const service = makeCouponsService(noDatabase, 'UTC');
    const seen: unknown[] = [];
    service.addCouponUsage(usage({}, seen));
    expect(await service.membersUsing([])).toEqual(new Map());
    expect(seen).toEqual([]);
  });
});
