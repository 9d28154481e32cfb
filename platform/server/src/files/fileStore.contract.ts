import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileEntry, FileStore } from './fileStore';
import { FileKeyError } from './keys';

export async function collect(entries: AsyncIterable<FileEntry>): Promise<FileEntry[]> {
  const out: FileEntry[] = [];
  for await (const entry of entries) out.push(entry);
  return out;
}

export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** A stream that gives some bytes, then fails: an upload cut off half way. */
export function failingStream(): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (sent) this.destroy(new Error('connection reset'));
      else {
        sent = true;
        this.push(Buffer.alloc(64 * 1024, 1));
      }
    },
  });
}

export interface StoreUnderTest {
  store: FileStore;
  close?(): Promise<void>;
}

export interface ContractOptions {
  /** S3 lists in UTF-8 byte order; a stand-in server that does not (s3rver walks its folders) is checked for the set only. */
  listsInKeyOrder?: boolean;
}

/** The behaviour every FileStore must share; each implementation's test file runs it against a fresh store. */
export function fileStoreContract(name: string, open: () => Promise<StoreUnderTest>, { listsInKeyOrder = true }: ContractOptions = {}): void {
  describe(`${name}: FileStore contract`, () => {
    let subject: StoreUnderTest;
    let store: FileStore;
    beforeAll(async () => {
      subject = await open();
      store = subject.store;
    });
    afterAll(async () => subject?.close?.());

    it('stores bytes and gives them back with size and content type', async () => {
      const before = Date.now();
      const put = await store.put('docs/hello.txt', Buffer.from('Hello, wörld'), { contentType: 'text/plain; charset=utf-8' });
      expect(put).toEqual({ key: 'docs/hello.txt', size: 13 });
      const file = await store.get('docs/hello.txt');
      expect(file).not.toBeNull();
      if (!file) return;
      expect((await readAll(file.body)).toString('utf8')).toBe('Hello, wörld');
      expect(file).toMatchObject({ key: 'docs/hello.txt', size: 13, contentType: 'text/plain; charset=utf-8' });
      const head = await store.head('docs/hello.txt');
      expect(head).toEqual({ key: 'docs/hello.txt', size: 13, contentType: 'text/plain; charset=utf-8', lastModified: expect.any(Date) });
      // Stores keep whole seconds (S3, some file systems); allow for it.
      expect(head?.lastModified.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    });

    it('streams an upload larger than one S3 part (6 MiB) byte for byte', async () => {
      const chunk = Buffer.alloc(256 * 1024);
      for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31) % 251;
      const chunks = Array.from({ length: 24 }, (_, n) => Buffer.concat([chunk.subarray(n), chunk.subarray(0, n)]));
      const expected = Buffer.concat(chunks);
      const put = await store.put('big/blob.bin', Readable.from(chunks), { contentType: 'application/octet-stream' });
      expect(put.size).toBe(expected.length);
      const file = await store.get('big/blob.bin');
      expect(file?.size).toBe(expected.length);
      expect(file && (await readAll(file.body)).equals(expected)).toBe(true);
      await store.delete('big/blob.bin');
    });

    it('replaces a file whole, content type included', async () => {
      await store.put('replace/me.txt', Buffer.from('first version, long'), { contentType: 'text/plain' });
      await store.put('replace/me.txt', Readable.from([Buffer.from('{"v":'), Buffer.from('2}')]), { contentType: 'application/json' });
      const file = await store.get('replace/me.txt');
      expect(file && (await readAll(file.body)).toString()).toBe('{"v":2}');
      expect(file).toMatchObject({ size: 7, contentType: 'application/json' });
    });

    it('answers null for a missing file and deletes idempotently', async () => {
      expect(await store.get('missing/file.txt')).toBeNull();
      expect(await store.head('missing/file.txt')).toBeNull();
      await store.put('gone/soon.txt', Buffer.from('x'), { contentType: 'text/plain' });
      await store.delete('gone/soon.txt');
      await store.delete('gone/soon.txt');
      expect(await store.head('gone/soon.txt')).toBeNull();
      expect(await collect(store.list('gone/'))).toEqual([]);
    });

    it('lists by plain string prefix in key (byte) order, with sizes', async () => {
      for (const [key, text] of [
        ['list/a/2.txt', '22'],
        ['list/ab', 'ab!'],
        ['list/a/1.txt', '1'],
        ['list/a-b.txt', 'four'],
        ['list/b/c/d.txt', 'deep.'],
      ] as const) {
        await store.put(key, Buffer.from(text), { contentType: 'text/plain' });
      }
      const ordered = <T extends string | [string, number]>(list: T[]) =>
        listsInKeyOrder ? list : [...list].sort((a, b) => String(a).localeCompare(String(b)));
      const keys = async (prefix?: string) => ordered((await collect(store.list(prefix))).map((e) => e.key));
      expect(await keys('list/a/')).toEqual(['list/a/1.txt', 'list/a/2.txt']);
      expect(await keys('list/a')).toEqual(ordered(['list/a-b.txt', 'list/a/1.txt', 'list/a/2.txt', 'list/ab']));
      expect(await keys('list/b/c/')).toEqual(['list/b/c/d.txt']);
      expect(await keys('list/zzz')).toEqual([]);
      expect(await keys('nowhere/')).toEqual([]);
      const all = await collect(store.list('list/'));
      expect(ordered(all.map((e): [string, number] => [e.key, e.size]))).toEqual(
        ordered<[string, number]>([
          ['list/a-b.txt', 4],
          ['list/a/1.txt', 1],
          ['list/a/2.txt', 2],
          ['list/ab', 3],
          ['list/b/c/d.txt', 5],
        ]),
      );
      expect(all.every((e) => e.lastModified instanceof Date)).toBe(true);
      expect(await keys()).toEqual(expect.arrayContaining(['list/ab', 'docs/hello.txt']));
    });

    it('refuses keys that could escape the store or mean different files elsewhere', async () => {
      const bad = ['', '../secret', 'a/../../etc/passwd', '/etc/passwd', 'a\u0000b', 'a//b', 'a/', '.hidden', 'a/./b', 'a\\..\\b', 'x'.repeat(1025)];
      for (const key of bad) {
        await expect(store.put(key, Buffer.from('x'), { contentType: 'text/plain' }), JSON.stringify(key)).rejects.toBeInstanceOf(FileKeyError);
        await expect(store.get(key), JSON.stringify(key)).rejects.toBeInstanceOf(FileKeyError);
        await expect(store.head(key), JSON.stringify(key)).rejects.toBeInstanceOf(FileKeyError);
        await expect(store.delete(key), JSON.stringify(key)).rejects.toBeInstanceOf(FileKeyError);
      }
      await expect(collect(store.list('../'))).rejects.toBeInstanceOf(FileKeyError);
      await expect(collect(store.list('/abs'))).rejects.toBeInstanceOf(FileKeyError);
    });

    it('leaves nothing behind when an upload fails, and keeps the file it would have replaced', async () => {
      await expect(store.put('failed/new.bin', failingStream(), { contentType: 'application/octet-stream' })).rejects.toThrow();
      expect(await store.head('failed/new.bin')).toBeNull();
      expect(await collect(store.list('failed/'))).toEqual([]);

      await store.put('failed/kept.txt', Buffer.from('original'), { contentType: 'text/plain' });
      await expect(store.put('failed/kept.txt', failingStream(), { contentType: 'application/octet-stream' })).rejects.toThrow();
      const kept = await store.get('failed/kept.txt');
      expect(kept && (await readAll(kept.body)).toString()).toBe('original');
      expect(kept?.contentType).toBe('text/plain');
    });
  });
}
