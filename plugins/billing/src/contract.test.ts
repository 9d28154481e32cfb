import { describe, expect, it } from 'vitest';
import { CARD_SAVE_WAIT_MS, cardSaveWaitMs } from './contract';

describe('card-save wait (spec 01 section 9)', () => {
  it('is 10000 ms by default and the brand manifest overrides it', () => {
    expect(CARD_SAVE_WAIT_MS).toBe(10_000);
    expect(cardSaveWaitMs({})).toBe(10_000);
    expect(cardSaveWaitMs({ cardSaveWaitMs: 25_000 })).toBe(25_000);
  });
});
