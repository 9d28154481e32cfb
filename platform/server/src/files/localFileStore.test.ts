import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failingStream, fileStoreContract } from './fileStore.contract';
import { LocalFileStore } from './localFileStore';

fileStoreContract('LocalFileStore', async () => {
  const root = await mkdtemp(join(tmpdir(), 'portal-files-'));
  return { store: new LocalFileStore(root), close: () => rm(root, { recursive: true, force: true }) };
});

describe('LocalFileStore on disk', () => {
  let root: string;
  let store: LocalFileStore;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'portal-files-'));
    store = new LocalFileStore(join(root, 'files'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('keeps each file as a plain file at its key, readable without the store', async () => {
    await store.put('claims/2024/bill.pdf', Buffer.from('%PDF-1.7'), { contentType: 'application/pdf' });
    expect(await readFile(join(root, 'files', 'claims', '2024', 'bill.pdf'), 'utf8')).toBe('%PDF-1.7');
  });

  it('leaves no temporary file after a failed upload', async () => {
    await expect(store.put('claims/broken.pdf', failingStream(), { contentType: 'application/pdf' })).rejects.toThrow('connection reset');
    expect(await readdir(join(root, 'files', '.tmp'))).toEqual([]);
    expect(await readdir(join(root, 'files', 'claims'))).toEqual(['2024']);
  });

  it('writes nothing outside its folder for a key that tries to climb out', async () => {
    await expect(store.put('../escaped.txt', Buffer.from('x'), { contentType: 'text/plain' })).rejects.toThrow(/dot/);
    expect(await readdir(root)).toEqual(['files']);
  });
});
