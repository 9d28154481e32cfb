import { deferred } from '@portal/testing/deferred';
import { describe, expect, it } from 'vitest';
import { KeptResults } from './keptResults';

const clock = () => {
  let t = 1_000;
  return { now: () => t, pass: (ms: number) => (t += ms) };
};
const copyList = (list: number[]) => [...list];

describe('KeptResults: costly reads kept for a while', () => {
  it('answers the kept result until it is ttl old (dated from when its read started), then reads again', async () => {
    const c = clock();
    const kept = new KeptResults<number[]>(5_000, copyList, c.now);
    let reads = 0;
    const take = async () => [++reads];
    expect(await kept.get('a', take)).toEqual([1]);
    c.pass(4_999);
    expect(await kept.get('a', take)).toEqual([1]);
    c.pass(1);
    expect(await kept.get('a', take)).toEqual([2]);
  });

  it('keeps each key apart', async () => {
    const kept = new KeptResults<number[]>(5_000, copyList, clock().now);
    expect(await kept.get('a', async () => [1])).toEqual([1]);
    expect(await kept.get('b', async () => [2])).toEqual([2]);
    expect(await kept.get('a', async () => [3])).toEqual([1]);
  });

  it('shares a read under way: requests arriving meanwhile do not read again', async () => {
    const kept = new KeptResults<number[]>(5_000, copyList, clock().now);
    let reads = 0;
    const gate = deferred();
    const take = async () => {
      reads++;
      await gate.promise;
      return [reads];
    };
    const all = Promise.all(Array.from({ length: 8 }, () => kept.get('a', take)));
    gate.release();
    expect(await all).toEqual(Array.from({ length: 8 }, () => [1]));
    expect(reads).toBe(1);
  });

  it('does not keep a failed read; a request that waited for it reads itself', async () => {
    const kept = new KeptResults<number[]>(5_000, copyList, clock().now);
    let fail = true;
    const take = async () => {
      if (fail) throw new Error('database gone');
      return [7];
    };
    const first = kept.get('a', take);
    fail = false;
    const second = kept.get('a', take);
    await expect(first).rejects.toThrow('database gone');
    expect(await second).toEqual([7]);
    expect(await kept.get('a', async () => [8])).toEqual([7]);
  });

  it('gives each caller a copy: changing an answer does not change the kept result', async () => {
    const kept = new KeptResults<number[]>(5_000, copyList, clock().now);
    const answer = await kept.get('a', async () => [1, 2]);
    answer.push(3);
    expect(await kept.get('a', async () => [9])).toEqual([1, 2]);
  });

  it('keeps at most maxKeys keys: the stale first, then the oldest', async () => {
    const c = clock();
    const kept = new KeptResults<number[]>(5_000, copyList, c.now, 2);
    await kept.get('a', async () => [1]);
    await kept.get('b', async () => [2]);
    await kept.get('c', async () => [3]);
    // 'a' (the oldest) went; 'b' and 'c' are kept.
    expect(await kept.get('b', async () => [20])).toEqual([2]);
    expect(await kept.get('c', async () => [30])).toEqual([3]);
    expect(await kept.get('a', async () => [10])).toEqual([10]);
  });
});
