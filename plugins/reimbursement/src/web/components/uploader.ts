import { ApiCallError, type ApiClient } from '@portal/web';
import { ReimbursementApi, type UploadStatus } from '../../contract';

/**
 * A file's unfinished upload is remembered in this tab's session (sessionStorage: gone with the tab), so choosing the
 * same file again, even after a reload, resumes it. The entry's key is a hash of the file's name, size and last change:
 * file names are health data ("Smith chemo EOB.pdf") and none is stored. An entry is kept for a day, as long as the
 * server keeps an unfinished upload. Another user signing in to the tab finds only hashes and upload ids that answer
 * them 404 (an upload is its member's).
 */
const PREFIX = 'cq.reimbursement.upload:';
export const RESUME_FOR_MS = 24 * 60 * 60 * 1000;

interface Remembered {
  id: string;
  /** When the upload was started (epoch ms): the server drops it unfinished a day after. */
  at: number;
}

/** The entry key of a file: SHA-256 of its name, size and last change, in hex. */
export async function resumeKey(file: File): Promise<string> {
  const identity = new TextEncoder().encode(JSON.stringify([file.name, file.size, file.lastModified]));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', identity));
  return PREFIX + Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

const read = (raw: string | null, now: number): Remembered | null => {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<Remembered> | null;
    return typeof v?.id === 'string' && typeof v.at === 'number' && now - v.at < RESUME_FOR_MS ? { id: v.id, at: v.at } : null;
  } catch {
    return null;
  }
};

/** The keys of a store's upload entries. */
const entriesIn = (store: Storage): string[] => {
  const keys: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const k = store.key(i);
    if (k?.startsWith(PREFIX)) keys.push(k);
  }
  return keys;
};

/**
 * Forgets what no longer resumes anything: this session's entries older than a day (or unreadable), and every entry an
 * earlier version kept in localStorage, for good and under the file's name.
 */
export function forgetStale(now = Date.now()): void {
  const session = globalThis.sessionStorage;
  if (session) for (const k of entriesIn(session)) if (!read(session.getItem(k), now)) session.removeItem(k);
  const local = globalThis.localStorage;
  if (local) for (const k of entriesIn(local)) local.removeItem(k);
}

const RETRIES = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const statusFrom = (e: unknown): UploadStatus | null => {
  const data = e instanceof ApiCallError ? (e.body as { Data?: UploadStatus } | null)?.Data : null;
  return data && typeof data.Offset === 'number' ? data : null;
};

/**
 * Sends one file in chunks and answers its upload id. A file whose upload was interrupted (a lost connection, a closed
 * tab) resumes from the bytes the server has; a failed chunk is retried from the server's offset up to 3 times.
 */
export async function uploadFile(api: ApiClient, file: File, onProgress: (sent: number) => void, signal?: AbortSignal): Promise<string> {
  const quiet = { notify: false, skipLoadingBar: true, signal } as const;
  forgetStale();
  const key = await resumeKey(file);
  const remembered = read(sessionStorage.getItem(key), Date.now());
  let found: UploadStatus | null = null;
  if (remembered) found = await api.call(ReimbursementApi.uploadStatus, { params: { id: remembered.id } }, quiet).catch(() => null);
  let status: UploadStatus =
    found ?? (await api.call(ReimbursementApi.uploadStart, { body: { FileName: file.name, Size: file.size } }, { ...quiet, notify: false }));
  // A resumed upload keeps the day it started: the server drops it a day after that, whatever was sent since.
  sessionStorage.setItem(key, JSON.stringify({ id: status.UploadId, at: found && remembered ? remembered.at : Date.now() } satisfies Remembered));
  onProgress(status.Offset);
  let failures = 0;
  while (status.Offset < status.Size) {
    const from: number = status.Offset;
    const id: string = status.UploadId;
    try {
      status = await api.call(
        ReimbursementApi.uploadChunk,
        { params: { id }, query: { Offset: from }, body: file.slice(from, from + status.ChunkSize) },
        { ...quiet, onUploadProgress: (sent) => onProgress(from + sent) },
      );
      failures = 0;
    } catch (e) {
      if (signal?.aborted) throw e;
      const now = statusFrom(e);
      if (now && e instanceof ApiCallError && e.status === 409) {
        status = now;
        continue;
      }
      if (++failures > RETRIES) throw e;
      await sleep(1000 * failures);
      status = await api.call(ReimbursementApi.uploadStatus, { params: { id } }, quiet);
    }
    onProgress(status.Offset);
  }
  return status.UploadId;
}

/** The file's upload is used up (its reimbursement was created): forget it. Never fails (the entry goes in a day anyway). */
export async function forgetUpload(file: File): Promise<void> {
  try {
    sessionStorage.removeItem(await resumeKey(file));
  } catch {
    // No storage or no hashing here: nothing was remembered either.
  }
}
