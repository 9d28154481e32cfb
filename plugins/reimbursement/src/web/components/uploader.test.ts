import type { ApiClient } from '@portal/web';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The web kernel's entry cannot load in a unit test (it creates vanilla-extract styles, which need the build's plugin);
// the uploader uses only its call errors from it, so those come from their own module, the real classes.
vi.mock('@portal/web', () => import('../../../../../platform/web/src/api/errors'));

import { ReimbursementApi, type UploadStatus } from '../../contract';
import { forgetStale, forgetUpload, RESUME_FOR_MS, resumeKey, uploadFile } from './uploader';

/** A Storage over a Map (the browser's key/length walk included). */
class MemoryStorage implements Storage {
  readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.items.set(k, String(v));
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
  clear() {
    this.items.clear();
  }
}

const NAME = 'Smith_J_chemo_EOB_2025-03.pdf';
const file = (name = NAME, bytes = 10, lastModified = 1_700_000_000_000) => new File([new Uint8Array(bytes)], name, { lastModified });

/** A server whose uploads finish with one chunk; it knows the uploads in `known` (others are 404 to status). */
function server(known = new Set<string>()) {
  const calls: string[] = [];
  let made = 0;
  const api = {
    call: async (endpoint: unknown, input: { params?: { id: string }; body?: { Size?: number } }) => {
      if (endpoint === ReimbursementApi.uploadStart) {
        const id = `u-${++made}`;
        known.add(id);
        calls.push(`start ${id}`);
        return { UploadId: id, FileName: 'x', Size: input.body?.Size ?? 0, Offset: 0, ChunkSize: 4096 } satisfies UploadStatus;
      }
      const id = input.params?.id ?? '';
      if (endpoint === ReimbursementApi.uploadStatus) {
        calls.push(`status ${id}`);
        if (!known.has(id)) throw new Error('404');
        return { UploadId: id, FileName: 'x', Size: 10, Offset: 4, ChunkSize: 4096 } satisfies UploadStatus;
      }
      calls.push(`chunk ${id}`);
      return { UploadId: id, FileName: 'x', Size: 10, Offset: 10, ChunkSize: 4096 } satisfies UploadStatus;
    },
  } as unknown as ApiClient;
  return { api, calls, known };
}

let session: MemoryStorage;
let local: MemoryStorage;
beforeEach(() => {
  session = new MemoryStorage();
  local = new MemoryStorage();
  vi.stubGlobal('sessionStorage', session);
  vi.stubGlobal('localStorage', local);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the uploader's memory of unfinished uploads", () => {
  it('keeps it in sessionStorage under a hash of the name, size and last change: no file name is stored, nothing in localStorage', async () => {
    const { api } = server();
    expect(await uploadFile(api, file(), () => {})).toBe('u-1');
    const [key, value] = [...session.items][0] ?? [];
    expect(session.items.size).toBe(1);
    expect(key).toBe(await resumeKey(file()));
    expect(key).toMatch(/^cq\.reimbursement\.upload:[0-9a-f]{64}$/);
    expect(`${key}${value}`).not.toContain('Smith');
    expect(JSON.parse(value ?? '')).toMatchObject({ id: 'u-1' });
    expect(local.items.size).toBe(0);
    // Another name, size or last change is another file.
    const others = await Promise.all([resumeKey(file('other.pdf')), resumeKey(file(NAME, 11)), resumeKey(file(NAME, 10, 1))]);
    expect(new Set([key, ...others]).size).toBe(4);
  });

  it('resumes the same file chosen again, and forgets it once its reimbursement is made', async () => {
    const { api, calls } = server();
    await uploadFile(api, file(), () => {});
    await uploadFile(api, file(), () => {});
    expect(calls).toEqual(['start u-1', 'chunk u-1', 'status u-1', 'chunk u-1']);
    await forgetUpload(file());
    expect(session.items.size).toBe(0);
    await uploadFile(api, file(), () => {});
    expect(calls.slice(4)).toEqual(['start u-2', 'chunk u-2']);
  });

  it('keeps an entry for a day from the upload start (as the server keeps the upload), resumed or not; then starts anew', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = new Date('2026-03-01T10:00:00Z').getTime();
    vi.setSystemTime(t0);
    const { api, calls } = server();
    await uploadFile(api, file(), () => {});
    vi.setSystemTime(t0 + RESUME_FOR_MS - 60_000);
    await uploadFile(api, file(), () => {});
    expect(calls).toEqual(['start u-1', 'chunk u-1', 'status u-1', 'chunk u-1']);
    vi.setSystemTime(t0 + RESUME_FOR_MS);
    await uploadFile(api, file(), () => {});
    expect(calls.slice(4)).toEqual(['start u-2', 'chunk u-2']);
    expect(JSON.parse(session.getItem(await resumeKey(file())) ?? '')).toEqual({ id: 'u-2', at: t0 + RESUME_FOR_MS });
  });

  it("forgets other files' entries older than a day, unreadable ones and the names an earlier version kept in localStorage", async () => {
    const now = Date.now();
    const [fresh, old] = [await resumeKey(file('fresh.pdf')), await resumeKey(file('old.pdf'))];
    session.setItem(fresh, JSON.stringify({ id: 'u-fresh', at: now - RESUME_FOR_MS + 60_000 }));
    session.setItem(old, JSON.stringify({ id: 'u-old', at: now - RESUME_FOR_MS - 1 }));
    session.setItem('cq.reimbursement.upload:broken', 'u-plain-id');
    session.setItem('cq.accessToken', 'kept');
    local.setItem(`cq.reimbursement.upload:${NAME}:10:1700000000000`, 'u-legacy');
    local.setItem('cq.lang', 'es');
    forgetStale(now);
    expect([...session.items.keys()].sort()).toEqual(['cq.accessToken', fresh].sort());
    expect([...local.items.keys()]).toEqual(['cq.lang']);
  });

  it('starts anew when the remembered upload is gone from the server (another user of the tab, or dropped)', async () => {
    const { api, calls, known } = server();
    await uploadFile(api, file(), () => {});
    known.clear();
    expect(await uploadFile(api, file(), () => {})).toBe('u-2');
    expect(calls.slice(2)).toEqual(['status u-1', 'start u-2', 'chunk u-2']);
  });
});
