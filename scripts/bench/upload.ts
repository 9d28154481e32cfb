/**
 * A 1 GB reimbursement upload over real HTTP: the resumable chunked upload (8 MB chunks), then create, which checks the
 * content, has the sandbox scanner read every byte and keeps the file. Prints the throughput of each phase and the API
 * process's resident memory: at rest before, and its peak (VmHWM) after. Budget: the upload adds under 200 MB to the API's
 * memory, whatever the file's size (docs/PERFORMANCE.md); the absolute peak is printed beside it.
 *
 *   node --import tsx scripts/bench/upload.ts [--port N] [--mb N] [--pglite]
 *
 * Starts the seeded stack (scripts/e2e-server.ts), uploads as the finance demo member, stops it. Exit code 0 when the
 * peak meets its budget, 1 when it does not, 2 when the bench failed.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { DEMO_USER, load1, signIn, startPostgres, startStack } from './lib';

export const UPLOAD_BUDGET = { addedRssMb: 200 } as const;

/** The pid listening on the port (the API process). */
function pidOnPort(port: number): number {
  const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const m = /pid=(\d+)/.exec(out);
  if (!m) throw new Error(`no process listens on ${port}: ${out}`);
  return Number(m[1]);
}
/** Resident and peak resident memory of a process, MB. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

export interface UploadResult {
  megabytes: number;
  chunkMb: number;
  uploadSeconds: number;
  uploadMbPerS: number;
  createSeconds: number;
  createMbPerS: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  pass: boolean;
}

/** Uploads `mb` megabytes to the API at `base` (port `port`) and measures it. */
export async function runUploadBench(a: { base: string; port: number; mb: number }): Promise<UploadResult> {
  const pid = pidOnPort(a.port);
  const tokens = await signIn(a.base, 'finance', DEMO_USER.finance as string);
  // The brand site is told apart by Host (browsers resolve *.localhost; Node's resolver may not).
  const headers = { authorization: `Bearer ${tokens.access_token}`, 'x-form-token': tokens.form_token, host: `finance.localhost:${a.port}` };
  const url = new URL(a.base);
  // node:http, not fetch: fetch may not set Host, which tells the brand site apart.
  const call = (method: string, path: string, body?: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const payload = body instanceof Uint8Array ? body : body ? Buffer.from(JSON.stringify(body)) : undefined;
      const req = httpRequest(
        {
          hostname: url.hostname,
          port: url.port,
          path,
          method,
          headers: {
            ...headers,
            ...(payload
              ? { 'content-type': body instanceof Uint8Array ? 'application/octet-stream' : 'application/json', 'content-length': payload.length }
              : {}),
          },
        },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => {
            const text = Buffer.concat(parts).toString('utf8');
            if ((res.statusCode ?? 500) >= 400) reject(new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`));
            else resolve(JSON.parse(text).Data);
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const size = a.mb * 1024 * 1024;
  // A PDF by its first bytes, then padding: the content check reads the head, the scanner and the store every byte.

  let chunkMb = 0;
  const before = memory(pid);
  let peakSeen = before.rss;
  const trace: string[] = [];
  let ticks = 0;
  const poll = setInterval(() => {
    const now = memory(pid).rss;
    peakSeen = Math.max(peakSeen, now);
    if (++ticks % 20 === 0) trace.push(`${ticks / 10}s:${now}`);
  }, 100);
  try {
    const started = await call('POST', '/api/reimbursements/uploads', { FileName: 'bench-receipt.pdf', Size: size });
    const chunkBytes = started.ChunkSize as number;
    const uploadId = started.UploadId as string;
    const head = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n');
    const padding = Buffer.alloc(chunkBytes, 0x20);
    const first = Buffer.concat([head, padding.subarray(head.length)]);
    chunkMb = chunkBytes / 1024 / 1024;
    const t0 = performance.now();
    for (let at = 0; at < size; at += chunkBytes) {
      const n = Math.min(chunkBytes, size - at);
      await call('PATCH', `/api/reimbursements/uploads/${uploadId}?Offset=${at}`, (at === 0 ? first : padding).subarray(0, n));
    }
    const uploadSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    await call('POST', '/api/reimbursements/create', {
      type: 'application/pdf',
      name: 'bench-receipt.pdf',
      ext: 'pdf',
      UploadId: uploadId,
      BatchId: randomUUID(),
      reimbursement: { type: 'application/pdf', FileName: 'bench-receipt.pdf', Extension: 'pdf', ServiceDate: '2026-01-15', Amount: '10.00' },
    });
    const createSeconds = (performance.now() - t1) / 1000;
    if (process.env.UPLOAD_TRACE) process.stderr.write(`RSS MB over time (upload ${Math.round(uploadSeconds)} s, then create): ${trace.join(' ')}\n`);
    const after = memory(pid);
    const peak = Math.max(after.peak, peakSeen);
    return {
      megabytes: a.mb,
      chunkMb,
      uploadSeconds: Math.round(uploadSeconds * 10) / 10,
      uploadMbPerS: Math.round((a.mb / uploadSeconds) * 10) / 10,
      createSeconds: Math.round(createSeconds * 10) / 10,
      createMbPerS: Math.round((a.mb / createSeconds) * 10) / 10,
      rssBeforeMb: before.rss,
      rssPeakMb: peak,
      pass: peak - before.rss < UPLOAD_BUDGET.addedRssMb,
    };
  } finally {
    clearInterval(poll);
  }
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} needs a positive number`);
  return v;
}

async function main(): Promise<number> {
  const port = arg('port', 8650);
  const mb = arg('mb', 1024);
  const load = load1();
  // On PostgreSQL by default, as in production: embedded PGlite alone holds about 450 MB in the API process.
  const pglite = process.argv.includes('--pglite');
  const pg = pglite ? null : await startPostgres();
  const stack = await startStack({ port, sandboxPort: port + 10, databaseUrl: pg?.url });
  try {
    const r = await runUploadBench({ base: stack.url, port, mb });
    console.log(`\n| upload | upload | MB/s | create (check, scan, keep) | MB/s | API RSS at rest | API RSS peak | added by the upload | budget | result |`);
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|---|');
    console.log(
      `| ${r.megabytes} MB in ${r.chunkMb} MB chunks | ${r.uploadSeconds} s | ${r.uploadMbPerS} | ${r.createSeconds} s | ${r.createMbPerS} | ${r.rssBeforeMb} MB | ${r.rssPeakMb} MB | ${r.rssPeakMb - r.rssBeforeMb} MB | added < ${UPLOAD_BUDGET.addedRssMb} MB | ${r.pass ? 'pass' : 'FAIL'} |`,
    );
    console.log(`\nAPI on ${pglite ? 'PGlite' : 'PostgreSQL'}; 1-minute load average ${load} before, ${load1()} after`);
    return r.pass ? 0 : 1;
  } finally {
    await stack.stop();
    await pg?.stop();
  }
}

if (process.argv[1]?.endsWith('upload.ts')) {
  main().then(
    (code) => process.exit(code),
    (e) => {
      console.error(e);
      process.exit(2);
    },
  );
}
