import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { byteLimit } from './byteLimit';

const drain = async (r: AsyncIterable<unknown>) => {
  for await (const _ of r);
};

describe('byteLimit', () => {
  it('passes up to the limit and counts the bytes', async () => {
    const counted = { bytes: 0 };
    const limit = byteLimit(10, counted);
    await Promise.all([pipeline(Readable.from([Buffer.alloc(4), Buffer.alloc(6)]), limit), drain(limit)]);
    expect(counted.bytes).toBe(10);
  });
  it('fails with 413 and the message one byte past it', async () => {
    const limit = byteLimit(10, { bytes: 0 }, 'too big');
    await expect(Promise.all([pipeline(Readable.from([Buffer.alloc(11)]), limit), drain(limit)])).rejects.toMatchObject({ status: 413, message: 'too big' });
  });
});
