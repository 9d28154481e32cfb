import { pipeline, Readable, Transform } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, paginateListObjectsV2, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FileBody, FileEntry, FileInfo, FileStore, PutOptions, StoredFile } from './fileStore';
import { assertFileKey, assertFilePrefix } from './keys';

export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible service (MinIO, R2, ...); null for AWS itself. */
  endpoint: string | null;
  /** Bucket in the path (http://host/bucket/key) rather than the host name; most S3-compatible services want it. */
  forcePathStyle: boolean;
  /** Null uses the SDK's default chain (environment, instance role, ...). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

/** An S3 client for the settings. */
export function createS3Client(settings: Omit<S3Settings, 'bucket'>): S3Client {
  return new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    // The SDK's default checksums (aws-chunked uploads with trailers) are not understood by every S3-compatible
    // service; against AWS itself the defaults stay.
    ...(settings.endpoint ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
  });
}

const isNotFound = (e: unknown) => e instanceof S3ServiceException && (e.$metadata.httpStatusCode === 404 || e.name === 'NoSuchKey' || e.name === 'NotFound');

/**
 * Files in an S3 bucket (AWS or S3-compatible). Streams go up through lib-storage's Upload, in parts of 5 MiB, so a
 * large upload is never held whole; a failed upload is aborted, and S3 shows an object only once it is complete.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3';
  constructor(
    private readonly client: S3Client,
    readonly bucket: string,
  ) {}

  static fromSettings(settings: S3Settings): S3FileStore {
    return new S3FileStore(createS3Client(settings), settings.bucket);
  }

  async put(key: string, body: FileBody, options: PutOptions): Promise<{ key: string; size: number }> {
    assertFileKey(key);
    let size = 0;
    let source: Readable | Uint8Array = body;
    if (body instanceof Readable) {
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          done(null, chunk);
        },
      });
      // An error on the way destroys the counter, which fails (and aborts) the upload below.
      pipeline(body, counter, () => {});
      source = counter;
    } else size = body.byteLength;
    await new Upload({ client: this.client, params: { Bucket: this.bucket, Key: key, Body: source, ContentType: options.contentType } }).done();
    return { key, size };
  }

  async get(key: string): Promise<StoredFile | null> {
    assertFileKey(key);
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!(res.Body instanceof Readable)) throw new Error(`S3 returned no readable body for ${key}`);
      return {
        key,
        size: res.ContentLength ?? 0,
        contentType: res.ContentType ?? 'application/octet-stream',
        lastModified: res.LastModified ?? new Date(0),
        body: res.Body,
      };
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  async head(key: string): Promise<FileInfo | null> {
    assertFileKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: res.ContentLength ?? 0, contentType: res.ContentType ?? 'application/octet-stream', lastModified: res.LastModified ?? new Date(0) };
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    assertFileKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async *list(prefix = ''): AsyncIterable<FileEntry> {
    assertFilePrefix(prefix);
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: prefix || undefined })) {
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield { key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) };
      }
    }
  }
}
