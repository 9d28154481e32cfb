import { describe, expect, it } from 'vitest';
import { GAUGE_BANDS, gaugeBand } from './gauge';

describe('gaugeBand: the gauge ranges 0-40, 40-80, 80-100', () => {
  it('puts each value in its band, a boundary in the upper one, and clamps outside 0-100', () => {
    expect(GAUGE_BANDS.map((b) => [b.from, b.to])).toEqual([
      [0, 40],
      [40, 80],
      [80, 100],
    ]);
    expect([0, 39.9, 40, 79, 80, 100, -5, 140].map((v) => gaugeBand(v).key)).toEqual(['low', 'low', 'middle', 'middle', 'high', 'high', 'low', 'high']);
  });
});
