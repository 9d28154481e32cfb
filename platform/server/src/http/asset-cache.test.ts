import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AssetCache } from './asset-cache';

const dir = mkdtempSync(join(tmpdir(), 'asset-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe('the hashed-asset cache', () => {
  it('reads a file once and answers later reads from memory, even after the file is gone from disk', async () => {
    const cache = new AssetCache();
    const path = file('app-1a2b.js', 'console.log(1)');
    const first = await cache.read(path);
    expect(first).toEqual({ kind: 'bytes', body: Buffer.from('console.log(1)') });
    unlinkSync(path);
    expect(await cache.read(path)).toEqual(first);
    expect(cache.bytes).toBe(14);
  });

  it('reports a missing file or a folder as missing and does not remember it', async () => {
    const cache = new AssetCache();
    expect(await cache.read(join(dir, 'nope-0000.js'))).toEqual({ kind: 'missing' });
    expect(await cache.read(dir)).toEqual({ kind: 'missing' });
    expect(cache.bytes).toBe(0);
    const path = file('late-9f9f.js', 'x');
    expect(await cache.read(path)).toEqual({ kind: 'bytes', body: Buffer.from('x') });
  });

  it('streams a file over the per-file limit instead of holding it', async () => {
    const cache = new AssetCache(1024, 10);
    expect(await cache.read(file('big-7777.js', 'x'.repeat(11)))).toEqual({ kind: 'large' });
    expect(cache.bytes).toBe(0);
  });

  it('stops holding files at its total limit, and still answers those from disk', async () => {
    const cache = new AssetCache(10, 10);
    const a = file('a-1111.js', '12345678');
    const b = file('b-2222.js', 'abcdefgh');
    await cache.read(a);
    expect((await cache.read(b)).kind).toBe('bytes');
    expect(cache.bytes).toBe(8);
    unlinkSync(b);
    expect(await cache.read(b)).toEqual({ kind: 'missing' });
    unlinkSync(a);
    expect((await cache.read(a)).kind).toBe('bytes');
  });

  it('holds one copy when two first reads of a file overlap', async () => {
    const cache = new AssetCache();
    const path = file('twice-3333.js', 'abc');
    const [one, two] = await Promise.all([cache.read(path), cache.read(path)]);
    expect(one).toEqual(two);
    expect(cache.bytes).toBe(3);
  });
});
