import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** The EICAR anti-virus test file's signature (https://www.eicar.org): every scanner reports it as a virus. */
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
export const EICAR_NAME = 'EICAR-Test-File';

/**
 * Whether the bytes contain the EICAR signature, read as they stream: a chunk boundary may split the signature, so
 * the last signature-length bytes of each chunk are carried into the next.
 */
export async function findsEicar(stream: AsyncIterable<Buffer | Uint8Array | string>): Promise<boolean> {
  const needle = Buffer.from(EICAR, 'latin1');
  let tail = Buffer.alloc(0);
  let found = false;
  for await (const chunk of stream) {
    if (found) continue; // drain the rest
    const buf = Buffer.concat([tail, typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk)]);
    if (buf.includes(needle)) found = true;
    tail = buf.subarray(Math.max(0, buf.length - (needle.length - 1)));
  }
  return found;
}

/**
 * The sandbox virus scanner: POST /scanner/scan with the file's bytes (application/octet-stream, streamed) answers
 * { clean: true } or { clean: false, signature }. It knows one virus, the EICAR test file, which is what anti-virus
 * products are tested with. GET /scanner shows what it is.
 */
export function registerScanner(app: FastifyInstance) {
  app.register(async (scoped) => {
    scoped.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
    scoped.post('/scanner/scan', async (req) => {
      const infected = await findsEicar(req.body as Readable);
      return infected ? { clean: false, signature: EICAR_NAME } : { clean: true };
    });
    scoped.get('/scanner', async (_req, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send('Sandbox virus scanner. POST /scanner/scan with the bytes (application/octet-stream); it reports the EICAR test file as a virus.'),
    );
  });
}
