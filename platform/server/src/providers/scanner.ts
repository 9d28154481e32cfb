import type { Readable } from 'node:stream';

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
  async scan(body: Readable, fileName: string): Promise<ScanResult> {
    const res = await fetch(`${this.base}/scanner/scan?name=${encodeURIComponent(fileName)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: body as unknown as ReadableStream,
      // Node's fetch streams a request body only in half-duplex mode.
      duplex: 'half',
      signal: AbortSignal.timeout(10 * 60_000),
    } as RequestInit);
    if (!res.ok) throw new Error(`the sandbox scanner failed: ${res.status} ${await res.text()}`);
    const answer = (await res.json()) as { clean?: unknown; signature?: unknown };
    if (answer.clean === true) return { clean: true };
    return { clean: false, signature: typeof answer.signature === 'string' ? answer.signature : 'unknown' };
  }
}

export function createVirusScanner(opts: { sandboxUrl: string }): VirusScanner {
  return new SandboxVirusScanner(opts.sandboxUrl);
}
