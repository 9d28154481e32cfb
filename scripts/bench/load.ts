/**
 * The HTTP load generator: a fixed number of keep-alive connections, each sending its next request as soon as the
 * previous answer is complete (closed loop, no pipelining), latencies kept as raw samples and sorted at the end.
 *
 * It speaks HTTP/1.1 over raw sockets with a pre-serialised request (as autocannon does) rather than through
 * node:http: the node:http client costs several times the CPU per request, and on a one-core budget it would be the
 * bottleneck against a bare Fastify, hiding the very overhead the benchmark is there to show.
 *
 * Run it in its own process (pinned to its own core by `runLoad`):
 *   node --import tsx scripts/bench/load.ts '<LoadSpec as JSON>'    → prints one LoadResult as JSON
 */
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { processCpuMs } from './proc-cpu';

export interface LoadSpec {
  /** Base address, e.g. http://127.0.0.1:8580 */
  url: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** Measured seconds. */
  duration: number;
  /** Seconds of load before the measurement starts (JIT, caches, pools); not counted. */
  warmup: number;
  /** A request slower than this counts as an error and its connection is replaced. */
  timeoutMs?: number;
  /** The server's process: its CPU over the measured seconds is reported per request (Linux only). */
  serverPid?: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  /** Non-2xx answers. */
  non2xx: number;
  /** Socket errors, malformed answers and timeouts. */
  errors: number;
  statuses: Record<string, number>;
  /** CPU (user + system, µs) the server process spent per measured request; null without `serverPid` or /proc. */
  cpuUsPerRequest: number | null;
}

/** Percentile of sorted samples (nearest rank). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] as number;
}

function serialise(spec: LoadSpec): Buffer {
  const u = new URL(spec.url);
  const body = spec.body === undefined ? null : Buffer.from(spec.body);
  const headers: Record<string, string> = { host: u.host, connection: 'keep-alive', 'user-agent': 'portal-bench', ...lower(spec.headers ?? {}) };
  if (body) headers['content-length'] = String(body.length);
  const head = `${spec.method ?? 'GET'} ${spec.path} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
  return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
}

const lower = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

/**
 * Length of one complete HTTP/1.1 response at the start of buf, or 0 when more bytes are needed; -1 when malformed.
 * Handles Content-Length and chunked bodies, which is all Fastify sends.
 */
export function responseLength(buf: Buffer): number {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd === -1) return buf.length > 65536 ? -1 : 0;
  const head = buf.toString('latin1', 0, headEnd).toLowerCase();
  const bodyStart = headEnd + 4;
  const cl = /\r\ncontent-length:\s*(\d+)/.exec(head);
  if (cl) {
    const total = bodyStart + Number(cl[1]);
    return buf.length >= total ? total : 0;
  }
  if (/\r\ntransfer-encoding:[^\r]*chunked/.test(head)) {
    let at = bodyStart;
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd === -1) return 0;
      const size = Number.parseInt(buf.toString('latin1', at, lineEnd), 16);
      if (Number.isNaN(size)) return -1;
      if (size === 0) {
        const end = buf.indexOf('\r\n\r\n', lineEnd);
        return end === -1 ? 0 : end + 4;
      }
      at = lineEnd + 2 + size + 2;
      if (buf.length < at) return 0;
    }
  }
  // No body framing: only valid for bodiless statuses.
  return /^http\/1\.[01] (1\d\d|204|304)/.test(head) ? bodyStart : -1;
}

/** Runs the load in this process. */
export async function generateLoad(spec: LoadSpec): Promise<LoadResult> {
  const u = new URL(spec.url);
  const port = Number(u.port || 80);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const request = serialise(spec);
  const timeoutMs = spec.timeoutMs ?? 10_000;
  let samples = new Float64Array(1 << 16);
  let count = 0;
  let non2xx = 0;
  let errors = 0;
  const statuses: Record<string, number> = {};
  const t0 = performance.now();
  const measureFrom = t0 + spec.warmup * 1000;
  const stopAt = measureFrom + spec.duration * 1000;
  let measuring = false;

  const record = (latency: number, status: string) => {
    if (!measuring) return;
    if (count === samples.length) {
      const bigger = new Float64Array(samples.length * 2);
      bigger.set(samples);
      samples = bigger;
    }
    samples[count++] = latency;
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status[0] !== '2') non2xx++;
  };

  const connection = () =>
    new Promise<void>((done) => {
      let socket: Socket;
      let pending: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      let timer: NodeJS.Timeout | undefined;
      const send = () => {
        if (performance.now() >= stopAt) {
          socket.end();
          done();
          return;
        }
        sentAt = performance.now();
        timer = setTimeout(() => fail(), timeoutMs);
        socket.write(request);
      };
      const fail = () => {
        if (timer) clearTimeout(timer);
        if (measuring) errors++;
        socket.removeAllListeners();
        socket.on('error', () => {});
        socket.destroy();
        if (performance.now() >= stopAt) done();
        else setTimeout(open, 10);
      };
      const open = () => {
        pending = Buffer.alloc(0);
        socket = connect({ host, port, noDelay: true });
        socket.on('connect', send);
        socket.on('error', fail);
        socket.on('close', () => {
          if (timer) fail();
        });
        socket.on('data', (chunk: Buffer) => {
          pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
          const n = responseLength(pending);
          if (n === 0) return;
          if (n < 0) return fail();
          clearTimeout(timer);
          timer = undefined;
          record(performance.now() - sentAt, pending.toString('latin1', 9, 12));
          pending = pending.subarray(n);
          send();
        });
      };
      open();
    });

  let cpuAtStart: number | null = null;
  const cpuNow = () => (spec.serverPid === undefined ? null : processCpuMs(spec.serverPid));
  const startMeasuring = () => {
    measuring = true;
    cpuAtStart = cpuNow();
  };
  const started = setTimeout(startMeasuring, spec.warmup * 1000);
  if (spec.warmup <= 0) {
    clearTimeout(started);
    startMeasuring();
  }
  const actualStart = () => Math.max(measureFrom, t0);
  await Promise.all(Array.from({ length: spec.connections }, connection));
  clearTimeout(started);
  const cpuAtEnd = cpuNow();
  const seconds = (Math.min(performance.now(), stopAt) - actualStart()) / 1000;
  const sorted = samples.subarray(0, count).sort();
  let sum = 0;
  for (const s of sorted) sum += s;
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return {
    requests: count,
    seconds: r2(seconds),
    rps: Math.round(count / seconds),
    p50: r2(percentile(sorted, 50)),
    p90: r2(percentile(sorted, 90)),
    p99: r2(percentile(sorted, 99)),
    max: r2(sorted[count - 1] ?? Number.NaN),
    mean: r2(sum / Math.max(1, count)),
    non2xx,
    errors,
    statuses,
    cpuUsPerRequest: cpuAtStart !== null && cpuAtEnd !== null && count > 0 ? Math.round(((cpuAtEnd - cpuAtStart) * 1000) / count) : null,
  };
}

/** Runs the load generator in a child process, pinned to `cpu` when taskset is available. */
export function runLoad(spec: LoadSpec, opts: { cpu?: number | null; cwd: string }): Promise<LoadResult> {
  const self = fileURLToPath(import.meta.url);
  const node = [process.execPath, '--import', 'tsx', self, JSON.stringify(spec)];
  const cmd = opts.cpu === undefined || opts.cpu === null ? node : ['taskset', '-c', String(opts.cpu), ...node];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd[0] as string, cmd.slice(1), { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`the load generator exited with ${code}`));
      try {
        resolve(JSON.parse(last) as LoadResult);
      } catch {
        reject(new Error(`the load generator printed no result: ${out.slice(-500)}`));
      }
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
  generateLoad(spec).then(
    (r) => {
      console.log(JSON.stringify(r));
      process.exit(0);
    },
    (e: unknown) => {
      console.error((e as Error).stack ?? String(e));
      process.exit(1);
    },
  );
}
