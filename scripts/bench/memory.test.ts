import { describe, expect, it } from 'vitest';
import { judgeMemory, MEMORY_TARGETS, type RoundHeld, slope } from './memory';

/** Rounds whose heap is `heap(round)` KiB, with nodes, documents and listeners flat unless changed. */
const rounds = (n: number, heap: (round: number) => number, change: (r: RoundHeld) => Partial<RoundHeld> = () => ({})): RoundHeld[] =>
  Array.from({ length: n }, (_, i) => {
    const r = { round: i + 1, heapKiB: heap(i + 1), nodes: 600, documents: 3, listeners: 300 };
    return { ...r, ...change(r) };
  });

describe('judgeMemory: what a long session still holds, round after round', () => {
  it('meets every target for a heap that settles after its warm-up and DOM counts that stay put', () => {
    // A big first round (the caches every page fills once), then a few KiB a round of optimised code.
    const v = judgeMemory(rounds(20, (r) => (r === 1 ? 9_000 : 13_000 + 20 * r)));
    expect(v.heapKiBPerRound).toBe(20);
    expect(v.missed).toEqual([]);
  });

  it('fits the heap growth over the second half only, so the warm-up rounds do not count', () => {
    const v = judgeMemory(rounds(10, (r) => (r <= 5 ? 10_000 + 1_000 * r : 15_000)));
    expect(v.heapKiBPerRound).toBe(0);
  });

  it('takes one round that ended holding more (a late collection, an answer in flight) as no growth', () => {
    // 2026-12-08 02:15 UTC: flat at about 12,420 KiB, then 13,240 after the last round.
    const heaps = [11743, 12696, 12452, 12423, 12420, 12464, 12417, 12425, 12457, 12570, 12424, 12417, 12417, 12424, 12406, 12421, 12427, 12436, 12418, 13240];
    const v = judgeMemory(rounds(20, (r) => heaps[r - 1] as number));
    expect(Math.abs(v.heapKiBPerRound)).toBeLessThan(5);
    expect(v.missed).toEqual([]);
  });

  it("the slope is the median of the pairs' slopes: exact for a line, and either way round", () => {
    expect(slope([0, 3, 6, 9])).toBe(3);
    expect(slope([9, 6, 3, 0])).toBe(-3);
    expect(slope([5])).toBe(0);
  });

  it('misses when each round keeps more heap than the budget allows (a page keeping its data every visit)', () => {
    const v = judgeMemory(rounds(20, (r) => 13_000 + 250 * r));
    expect(v.heapKiBPerRound).toBe(250);
    expect(v.missed).toEqual([`the JS heap grows 250 KiB a round (at most ${MEMORY_TARGETS.heapKiBPerRound})`]);
  });

  it('misses on DOM nodes, listeners or documents that pile up from the second round to the last', () => {
    const v = judgeMemory(
      rounds(
        20,
        () => 13_000,
        (r) => ({ nodes: 600 + 10 * r.round, listeners: 300 + r.round, documents: r.round > 10 ? 4 : 3 }),
      ),
    );
    expect(v).toMatchObject({ nodesGrowth: 180, listenersGrowth: 18, documentsGrowth: 1 });
    expect(v.missed).toHaveLength(3);
    expect(v.missed[0]).toMatch(/180 more DOM nodes after round 20 than after round 2/);
  });

  it('takes the last page’s own small moves (a few nodes either way) as flat', () => {
    const v = judgeMemory(
      rounds(
        20,
        () => 13_000,
        (r) => ({ nodes: 575 + ((r.round * 7) % 20), listeners: 292 + (r.round % 3) }),
      ),
    );
    expect(v.missed).toEqual([]);
  });

  it('refuses fewer than four rounds: the first is the warm-up and a slope needs the rest', () => {
    expect(() => judgeMemory(rounds(3, () => 1))).toThrow(/at least 4 rounds/);
  });
});
