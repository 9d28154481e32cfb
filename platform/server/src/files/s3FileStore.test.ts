import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { fileStoreContract } from './fileStore.contract';
import { S3FileStore } from './s3FileStore';

// s3rver is an S3-compatible server on real HTTP: the adapter is tested with the real SDK, signing and multipart uploads.
fileStoreContract(
  'S3FileStore (s3rver over HTTP)',
  async () => {
    const directory = await mkdtemp(join(tmpdir(), 'portal-s3-'));
    const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: 'portal-files', configs: [] }] });
    const { port } = (await server.run()) as AddressInfo;
    const store = S3FileStore.fromSettings({
      bucket: 'portal-files',
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    return {
      store,
      close: async () => {
        await server.close();
        await rm(directory, { recursive: true, force: true });
      },
    };
    // s3rver lists in folder-walk order where S3 lists in byte order.
  },
  { listsInKeyOrder: false },
);
