import { describe, expect, it } from 'vitest';
import { edgeAttributes, sidewaysOf } from './sidewaysScroll';

describe('a frame that may scroll sideways', () => {
  it('as wide as its content (or a pixel short) holds nothing beyond its edges', () => {
    expect(sidewaysOf({ scrollLeft: 0, scrollWidth: 600, clientWidth: 600 })).toEqual({ overflows: false, moreBefore: false, moreAfter: false });
    expect(sidewaysOf({ scrollLeft: 0, scrollWidth: 601, clientWidth: 600 }).overflows).toBe(false);
  });

  it('at its start has more after it only; scrolled part way, on both sides; at its end, before it only', () => {
    const box = { scrollWidth: 900, clientWidth: 390 };
    expect(sidewaysOf({ ...box, scrollLeft: 0 })).toEqual({ overflows: true, moreBefore: false, moreAfter: true });
    expect(sidewaysOf({ ...box, scrollLeft: 200 })).toEqual({ overflows: true, moreBefore: true, moreAfter: true });
    expect(sidewaysOf({ ...box, scrollLeft: 510 })).toEqual({ overflows: true, moreBefore: true, moreAfter: false });
    // A fractional end (zoom) still counts as the end.
    expect(sidewaysOf({ ...box, scrollLeft: 509.5 }).moreAfter).toBe(false);
  });

  it('right to left (negative scrollLeft) counts the distance scrolled', () => {
    expect(sidewaysOf({ scrollLeft: -200, scrollWidth: 900, clientWidth: 390 })).toEqual({ overflows: true, moreBefore: true, moreAfter: true });
  });

  it('sets an edge attribute only where columns are hidden', () => {
    expect(edgeAttributes({ overflows: true, moreBefore: false, moreAfter: true })).toEqual({ 'data-more-before': undefined, 'data-more-after': true });
  });
});
