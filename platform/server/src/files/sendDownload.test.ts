import { Readable } from 'node:stream';
import contentDisposition from 'content-disposition';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { SENT } from '../http/context';
import { type Download, sendDownload } from './sendDownload';

async function download(file: Download) {
  const app = Fastify();
  let returned: unknown;
  app.get('/file', async (_req, reply) => {
    returned = sendDownload(reply, file);
    return reply;
  });
  const res = await app.inject({ method: 'GET', url: '/file' });
  await app.close();
  return { res, returned };
}

describe('sendDownload', () => {
  it('sends a buffer as an attachment named in Content-Disposition and x-filename, uncached, and returns SENT', async () => {
    const { res, returned } = await download({ fileName: 'claims-2024-03-01.csv', contentType: 'text/csv; charset=utf-8', body: Buffer.from('a,b\r\n') });
    expect(returned).toBe(SENT);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('a,b\r\n');
    expect(res.headers).toMatchObject({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="claims-2024-03-01.csv"',
      'x-filename': 'claims-2024-03-01.csv',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
  });

  it('streams a body and sends its known size as Content-Length', async () => {
    const { res } = await download({
      fileName: 'statement.pdf',
      contentType: 'application/pdf',
      body: Readable.from([Buffer.from('%PDF-'), Buffer.from('1.7')]),
      size: 8,
    });
    expect(res.body).toBe('%PDF-1.7');
    expect(res.headers['content-length']).toBe('8');
  });

  it('names a non-ASCII file with an RFC 5987 filename* and an ASCII fallback; x-filename decodes to the name', async () => {
    const { res } = await download({ fileName: 'Résumé 100% – 東京.pdf', contentType: 'application/pdf', body: Buffer.from('x') });
    const header = String(res.headers['content-disposition']);
    expect(header).toContain(`filename*=UTF-8''R%C3%A9sum%C3%A9%20100%25%20%E2%80%93%20%E6%9D%B1%E4%BA%AC.pdf`);
    expect(header).toContain('filename="Resume 100% _ __.pdf"');
    expect(contentDisposition.parse(header).parameters.filename).toBe('Résumé 100% – 東京.pdf');
    const xFilename = String(res.headers['x-filename']);
    expect(xFilename).toMatch(/^[\x20-\x7e]+$/);
    expect(xFilename.startsWith('R%C3%A9sum%C3%A9 100%25 ')).toBe(true);
    expect(decodeURIComponent(xFilename)).toBe('Résumé 100% – 東京.pdf');
  });

  it('writes the letters that have no accent to drop as plain ones in the ASCII fallback', async () => {
    const { res } = await download({ fileName: 'Statement Łukasz Øster Strauß.pdf', contentType: 'application/pdf', body: Buffer.from('x') });
    const header = String(res.headers['content-disposition']);
    expect(header).toContain('filename="Statement Lukasz Oster Strauss.pdf"');
    expect(contentDisposition.parse(header).parameters.filename).toBe('Statement Łukasz Øster Strauß.pdf');
  });

  it('drops folders, control characters and leading dots from the name', async () => {
    const { res } = await download({ fileName: '../../etc/.passwd\r\nx', contentType: 'text/plain', body: Buffer.from('') });
    expect(res.headers['x-filename']).toBe('passwdx');
    const empty = await download({ fileName: '/', contentType: 'text/plain', body: Buffer.from('') });
    expect(empty.res.headers['x-filename']).toBe('download');
  });
});
