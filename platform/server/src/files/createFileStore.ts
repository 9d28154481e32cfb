import type { FileStore } from './fileStore';
import { LocalFileStore } from './localFileStore';
import { MemoryFileStore } from './memoryFileStore';
import type { S3Settings } from './s3FileStore';

/** Which store the server uses (FILE_STORE): a folder, an S3 bucket, or memory (tests, no data directory). */
export type FileStoreConfig = { kind: 'local'; dir: string } | ({ kind: 's3' } & S3Settings) | { kind: 'memory' };

export async function createFileStore(config: FileStoreConfig): Promise<FileStore> {
  switch (config.kind) {
    case 'local':
      return new LocalFileStore(config.dir);
    case 's3': {
      // The AWS SDK takes ~0.3 s to load: only processes that use S3 pay for it.
      const { S3FileStore } = await import('./s3FileStore');
      return S3FileStore.fromSettings(config);
    }
    case 'memory':
      return new MemoryFileStore();
  }
}
