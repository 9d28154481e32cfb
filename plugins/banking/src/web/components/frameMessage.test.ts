import { describe, expect, it } from 'vitest';
import { isFrameLinked } from './frameMessage';

const frame = { origin: 'http://localhost:8090' };

describe("the hosted frame's 'linked' message (review memmoney2 finding 1)", () => {
  it("is taken from the frame's own origin with action 'linked'", () => {
    expect(isFrameLinked({ origin: frame.origin, data: { source: 'sandbox-aggregator', action: 'linked', providerAccountId: 7 } }, frame)).toBe(true);
  });

  it('is never taken from another origin, even one alike, or our own', () => {
    for (const origin of ['http://localhost:8091', 'https://localhost:8090', 'http://localhost', 'http://evil.example', 'null', ''])
      expect(isFrameLinked({ origin, data: { action: 'linked' } }, frame)).toBe(false);
  });

  it("ignores the frame's other messages and anything not an object with action 'linked'", () => {
    for (const data of [{ action: 'loaded', height: 600 }, { action: 'LINKED' }, 'linked', null, undefined, 42, ['linked'], {}])
      expect(isFrameLinked({ origin: frame.origin, data }, frame)).toBe(false);
  });
});
