import { ApiCallError, type ApiClient } from '@portal/web';
import { ReimbursementApi, type UploadStatus } from '../../contract';

/** Where a file's unfinished upload is remembered, so choosing the same file again (even after a reload) resumes it. */
const keyOf = (file: File) => `cq.reimbursement.upload:${file.name}:${file.size}:${file.lastModified}`;
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
  const remembered = localStorage.getItem(keyOf(file));
  let found: UploadStatus | null = null;
  if (remembered) found = await api.call(ReimbursementApi.uploadStatus, { params: { id: remembered } }, quiet).catch(() => null);
  let status: UploadStatus =
    found ?? (await api.call(ReimbursementApi.uploadStart, { body: { FileName: file.name, Size: file.size } }, { ...quiet, notify: false }));
  localStorage.setItem(keyOf(file), status.UploadId);
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

/** The file's upload is used up (its reimbursement was created): forget it. */
export function forgetUpload(file: File): void {
  localStorage.removeItem(keyOf(file));
}
