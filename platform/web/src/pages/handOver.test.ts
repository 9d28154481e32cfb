import { describe, expect, it, vi } from 'vitest';
import { handOverOnce, handOverState } from './handOver';

describe('handing a token over', () => {
  it('hands a token over once while it is under way, and again after', async () => {
    const handOver = vi.fn(async () => {});
    const first = handOverOnce('t1', handOver);
    expect(handOverOnce('t1', handOver)).toBe(first);
    expect(await first).toBe(true);
    expect(handOver).toHaveBeenCalledTimes(1);
    expect(await handOverOnce('t1', handOver)).toBe(true);
    expect(handOver).toHaveBeenCalledTimes(2);
  });

  it('says a refused hand-over failed, without rejecting (no unhandled rejection), and lets it be tried again', async () => {
    const handOver = vi.fn(() => Promise.reject(new Error('storage is full')));
    await expect(handOverOnce('t2', handOver)).resolves.toBe(false);
    await expect(handOverOnce('t2', handOver)).resolves.toBe(false);
    expect(handOver).toHaveBeenCalledTimes(2);
  });

  it('says a hand-over that threw before returning its promise failed too', async () => {
    const handOver = vi.fn((): Promise<void> => {
      throw new TypeError('no storage');
    });
    await expect(handOverOnce('t3', handOver)).resolves.toBe(false);
  });
});

describe('the state of a page storing a handed token', () => {
  it('is none without a token, pending until its own token settles, then stored or failed', () => {
    expect(handOverState(undefined, null)).toBe('none');
    expect(handOverState('a', null)).toBe('pending');
    expect(handOverState('a', { token: 'other', stored: true })).toBe('pending');
    expect(handOverState('a', { token: 'a', stored: true })).toBe('stored');
    expect(handOverState('a', { token: 'a', stored: false })).toBe('failed');
  });
});
