import { describe, expect, it } from 'vitest';
import { deferred } from './deferred';

describe('deferred', () => {
  it('stays pending until released, then settles with the value given', async () => {
    const gate = deferred<number>();
    let settled: number | null = null;
    void gate.promise.then((value) => {
      settled = value;
    });
    await Promise.resolve();
    expect(settled).toBeNull();
    gate.release(7);
    await gate.promise;
    expect(settled).toBe(7);
  });

  it('keeps the first value when released twice', async () => {
    const gate = deferred<string>();
    gate.release('first');
    gate.release('second');
    await expect(gate.promise).resolves.toBe('first');
  });
});
