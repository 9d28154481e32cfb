import { deferred } from '@portal/testing/deferred';
import { describe, expect, it } from 'vitest';
import type { SqlClient } from '../db/database';
import { countKey, KeptCounts, keptCountsFor } from './keptCounts';

const clock = () => {
  let t = 1_000;
  return { now: () => t, pass: (ms: number) => (t += ms) };
};

/** A search whose page and total reads are counted; `total` is what its count finds. */
function search(total: number) {
  const calls = { rows: 0, counted: 0 };
  return {
    calls,
    reads: {
      rows: async () => {
        calls.rows++;
        return ['row'];
      },
      rowsWithTotal: async () => {
        calls.counted++;
        return { rows: ['row'], total };
      },
    },
  };
}

const options = { min: 100, ttlMs: 30_000, maxKeys: 3 };

describe('KeptCounts: the totals of paged searches', () => {
  it('keeps a total of at least `min` rows for ttl (dated from when its count started), then counts again', async () => {
    const c = clock();
    const counts = new KeptCounts(options, c.now);
    const s = search(100);
    expect(await counts.page('k', s.reads)).toEqual({ rows: ['row'], total: 100 });
    c.pass(29_999);
    expect(await counts.page('k', s.reads)).toEqual({ rows: ['row'], total: 100 });
    expect(s.calls).toEqual({ rows: 1, counted: 1 });
    c.pass(1);
    await counts.page('k', s.reads);
    expect(s.calls.counted).toBe(2);
  });

  it('counts a total under `min` with every page, so a short list is always exact', async () => {
    const counts = new KeptCounts(options, clock().now);
    const s = search(99);
    await counts.page('k', s.reads);
    await counts.page('k', s.reads);
    expect(s.calls).toEqual({ rows: 0, counted: 2 });
  });

  it('keeps each search apart', async () => {
    const counts = new KeptCounts(options, clock().now);
    expect((await counts.page('a', search(500).reads)).total).toBe(500);
    expect((await counts.page('b', search(700).reads)).total).toBe(700);
    expect((await counts.page('a', search(900).reads)).total).toBe(500);
  });

  it('lets searches arriving while a count is taken wait for it, each reading only its own page', async () => {
    const counts = new KeptCounts(options, clock().now);
    const gate = deferred();
    let counted = 0;
    let pages = 0;
    const reads = {
      rows: async () => [++pages],
      rowsWithTotal: async () => {
        counted++;
        await gate.promise;
        return { rows: [0], total: 250 };
      },
    };
    const all = Promise.all([counts.page('k', reads), counts.page('k', reads), counts.page('k', reads)]);
    gate.release();
    const answers = await all;
    expect(counted).toBe(1);
    expect(pages).toBe(2);
    expect(answers.map((a) => a.total)).toEqual([250, 250, 250]);
  });

  it('keeps no failed count: a search that waited for it counts itself, and the next one counts again', async () => {
    const counts = new KeptCounts(options, clock().now);
    const gate = deferred();
    let attempts = 0;
    const reads = {
      rows: async () => ['row'],
      rowsWithTotal: async () => {
        attempts++;
        if (attempts === 1) {
          await gate.promise;
          throw new Error('the database went away');
        }
        return { rows: ['row'], total: 300 };
      },
    };
    const first = counts.page('k', reads);
    const waiting = counts.page('k', reads);
    gate.release();
    await expect(first).rejects.toThrow('the database went away');
    expect((await waiting).total).toBe(300);
    expect(attempts).toBe(2);
    await counts.page('k', reads);
    expect(attempts).toBe(2);
  });

  it('keeps at most maxKeys totals, stale ones going first', async () => {
    const c = clock();
    const counts = new KeptCounts(options, c.now);
    await counts.page('old', search(100).reads);
    c.pass(30_000);
    await counts.page('a', search(100).reads);
    await counts.page('b', search(100).reads);
    await counts.page('c', search(100).reads);
    const a = search(100);
    await counts.page('a', a.reads);
    expect(a.calls.counted).toBe(0);
    const old = search(100);
    await counts.page('old', old.reads);
    expect(old.calls.counted).toBe(1);
  });
});

describe('keptCountsFor and countKey', () => {
  it('gives one KeptCounts per database and name', () => {
    const db1 = {} as SqlClient;
    const db2 = {} as SqlClient;
    expect(keptCountsFor(db1, 'claims')).toBe(keptCountsFor(db1, 'claims'));
    expect(keptCountsFor(db1, 'claims')).not.toBe(keptCountsFor(db1, 'support'));
    expect(keptCountsFor(db1, 'claims')).not.toBe(keptCountsFor(db2, 'claims'));
  });

  it('tells searches apart by their statement and their values', () => {
    expect(countKey('SELECT 1', [1, 'a'])).toBe(countKey('SELECT 1', [1, 'a']));
    expect(countKey('SELECT 1', [1, 'a'])).not.toBe(countKey('SELECT 1', [1, 'b']));
    expect(countKey('SELECT 1', [])).not.toBe(countKey('SELECT 2', []));
  });
});
