import { describe, expect, it } from 'vitest';
import { ConfigError, fileStoreConfig } from '../config';
import { createFileStore } from './createFileStore';
import { LocalFileStore } from './localFileStore';
import { MemoryFileStore } from './memoryFileStore';
import { S3FileStore } from './s3FileStore';

describe('fileStoreConfig (FILE_STORE, S3_*)', () => {
  it('defaults to the folder files/ in the data directory', async () => {
    expect(fileStoreConfig({}, '/srv/portal')).toEqual({ kind: 'local', dir: '/srv/portal/files' });
    const store = await createFileStore(fileStoreConfig({ FILE_STORE: 'local' }, '/srv/portal'));
    expect(store).toBeInstanceOf(LocalFileStore);
    expect(store).toMatchObject({ root: '/srv/portal/files' });
  });

  it('reads an S3-compatible bucket with path-style addressing by default', async () => {
    const config = fileStoreConfig(
      { FILE_STORE: 's3', S3_BUCKET: 'portal', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' },
      '/srv/portal',
    );
    expect(config).toEqual({
      kind: 's3',
      bucket: 'portal',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    expect(await createFileStore(config)).toBeInstanceOf(S3FileStore);
  });

  it('uses AWS itself, virtual-host style and the SDK credential chain when no endpoint or keys are given', () => {
    expect(fileStoreConfig({ FILE_STORE: 's3', S3_BUCKET: 'portal', S3_REGION: 'eu-west-1' }, '/d')).toEqual({
      kind: 's3',
      bucket: 'portal',
      region: 'eu-west-1',
      endpoint: null,
      forcePathStyle: false,
      credentials: null,
    });
    expect(fileStoreConfig({ FILE_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'https://s3.example.com', S3_FORCE_PATH_STYLE: 'false' }, '/d')).toMatchObject({
      forcePathStyle: false,
    });
  });

  it('refuses settings that cannot work, naming the variable', () => {
    expect(() => fileStoreConfig({ FILE_STORE: 'ftp' }, '/d')).toThrow(new ConfigError('FILE_STORE must be local or s3, got "ftp"'));
    expect(() => fileStoreConfig({ FILE_STORE: 's3' }, '/d')).toThrow(/S3_BUCKET/);
    expect(() => fileStoreConfig({ FILE_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' }, '/d')).toThrow(/S3_ENDPOINT/);
    expect(() => fileStoreConfig({ FILE_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' }, '/d')).toThrow(/set both or neither/);
    expect(() => fileStoreConfig({ FILE_STORE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' }, '/d')).toThrow(/S3_FORCE_PATH_STYLE/);
  });

  it('keeps files in memory when asked (tests)', async () => {
    expect(await createFileStore({ kind: 'memory' })).toBeInstanceOf(MemoryFileStore);
  });
});
