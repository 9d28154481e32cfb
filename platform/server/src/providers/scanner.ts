import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../http/errors';
import { parseAnswer } from './http';

/**
 * The scanner could not answer (down, failing, an answer that is not a verdict): the upload is refused for now with a
 * 503 the user can retry, and the cause goes to the log with it; never a 500, never "a virus" it did not find.
 */
export class ScannerUnavailableError extends ApiError {
  constructor(cause: string) {
    super(503, 'The virus scanner is not available right now. Please try again later.');
    this.cause = `virus scanner: ${cause}`;
  }
}

/** What a virus scan found: clean, or the name of what it found. */
export type ScanResult = { clean: true } | { clean: false; signature: string };

/**
 * The virus-scan hook every upload passes through before it is kept. Implementation: the sandbox scanner
 * (SANDBOX_URL) over HTTP, which finds the EICAR test file; a production adapter would call ClamAV (clamd INSTREAM)
 * or a cloud scanning service the same way, streaming the bytes.
 */
export interface VirusScanner {
  readonly kind: string;
  /** Scans the bytes as they stream (the stream is consumed). Rejects when the scanner cannot answer. */
  scan(body: Readable, fileName: string): Promise<ScanResult>;
}

export class SandboxVirusScanner implements VirusScanner {
  readonly kind = 'sandbox';
  private readonly base: string;
  constructor(sandboxUrl: string) {
    this.base = sandboxUrl.replace(/\/$/, '');
  }
  /**
   * Streams the bytes with node:http and pipeline, which hold back while the scanner reads (fetch's stream adapter may
   * read a Node stream ahead of what the connection takes, holding the whole file in memory).
   */
  async scan(body: Readable, fileName: string): Promise<ScanResult> {
    const url = new URL(`${this.base}/scanner/scan?name=${encodeURIComponent(fileName)}`);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let answer: { status: number; text: string };
    try {
      answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = send(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, timeout: 10 * 60_000 }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 500, text: Buffer.concat(parts).toString('utf8') }));
          res.on('error', reject);
        });
        req.on('timeout', () => req.destroy(new Error('the sandbox scanner did not answer in time')));
        pipeline(body, req).catch(reject);
      });
    } catch (e) {
      throw new ScannerUnavailableError((e as Error).message);
    }
    if (answer.status >= 400) throw new ScannerUnavailableError(`${answer.status} ${answer.text.slice(0, 200)}`);
    const verdict = parseAnswer(answer.text) as { clean?: unknown; signature?: unknown } | null | undefined;
    if (verdict?.clean === true) return { clean: true };
    if (verdict?.clean === false && typeof verdict.signature === 'string' && verdict.signature) return { clean: false, signature: verdict.signature };
    throw new ScannerUnavailableError(`an answer that is not a verdict (${answer.status}, ${answer.text.length} bytes)`);
  }
}

export function createVirusScanner(opts: { sandboxUrl: string }): VirusScanner {
  return new SandboxVirusScanner(opts.sandboxUrl);
}
