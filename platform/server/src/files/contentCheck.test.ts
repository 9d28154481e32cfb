import { Readable } from 'node:stream';
import { fixtures } from '@portal/testing/files';
import { describe, expect, it } from 'vitest';
import { checkContent, checkContentStream } from './contentCheck';

/** The bytes in small chunks, so checks must work across chunk boundaries. */
const streamOf = (bytes: Buffer) => Readable.from(Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7)));

describe('checkContent and checkContentStream', () => {
  it.each([
    ['scan.pdf', 'pdf', 'application/pdf'],
    ['photo.PNG', 'png', 'image/png'],
    ['photo.jpg', 'jpg', 'image/jpeg'],
    ['photo.jpeg', 'jpg', 'image/jpeg'],
    ['anim.gif', 'gif', 'image/gif'],
    ['letter.docx', 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['sheet.xlsx', 'xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['old.doc', 'doc', 'application/msword'],
    ['old.xls', 'xls', 'application/vnd.ms-excel'],
  ] as const)('accepts %s with matching content', async (name, kind, type) => {
    expect(await checkContent(name, await fixtures[kind]())).toEqual({ ok: true, contentType: type });
    expect(await checkContentStream(name, async () => streamOf(await fixtures[kind]()))).toEqual({ ok: true, contentType: type });
  });

  it.each([
    ['fake.pdf', 'text'],
    ['photo.png', 'jpg'],
    ['letter.docx', 'xlsx'],
    ['sheet.xlsx', 'docx'],
    ['old.doc', 'xls'],
    ['old.xls', 'doc'],
    ['archive.docx', 'zip'],
    ['scan.pdf', 'png'],
  ] as const)('refuses %s whose content is %s', async (name, kind) => {
    const result = await checkContent(name, await fixtures[kind]());
    expect(result.ok).toBe(false);
    expect((await checkContentStream(name, async () => streamOf(await fixtures[kind]()))).ok).toBe(false);
  });

  it('refuses an extension outside the list', async () => {
    expect((await checkContent('run.exe', await fixtures.pdf())).ok).toBe(false);
  });
});
