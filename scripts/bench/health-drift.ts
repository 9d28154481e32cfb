/**
 * Does serving the sites leave the API slower at /health? A diagnostic beside the API bench, not a budget. The API
 * bench measures /health on the PGlite stack after the page part has used it, and on the PostgreSQL stack fresh; this
 * measures one PGlite stack (seeded, pinned as the bench pins it) in rounds while fresh, then again after traffic like
 * the page part's, sent over HTTP without a browser: on every brand, sign-ins, the landing page's calls and the site's
 * files, and on card a billing route. Each round prints requests/s, the server's CPU per request, the CPU of its main
 * thread and of its other threads (V8's helpers, libuv's pool), and the hypervisor's steal on each core.
 *
 *   node --import tsx scripts/bench/health-drift.ts [--rounds 6] [--loops 40] [--duration 5] [--port 18600]
 *
 * --loops is how many times each brand's demo user signs in and loads the landing's calls; the site's files are
 * fetched on the first three. Builds nothing: it serves apps/web/dist (or WEB_DIST_DIR) and apps/server/dist.
 */
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { DEMO_USER, median, option, PINNING, ROOT, signIn, startStack } from './lib';
import { runLoad } from './load';
import { listeningPid, stealMsPerCpu, threadCpuMs } from './proc-cpu';

const rounds = Number(option('rounds', '6'));
const loops = Number(option('loops', '40'));
const duration = Number(option('duration', '5'));
const port = Number(option('port', '18600'));

/** A GET with the brand's Host (fetch drops a Host header); resolves with the status once the body is read. */
function get(path: string, host: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ hostname: '127.0.0.1', port, path, headers: { host, authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

const LANDING_CALLS = ['/', '/dashboard', '/config', '/api/account/user/identity', '/api/lookup/get', '/api/account/user/register/status'];
/**
 * Beyond the landing, by brand: a billing route, as the API in use serves them (until the fifty-seventh pass, the
 * first one turned async hooks on for the rest of the process).
 */
const MORE_CALLS: Record<string, string[]> = { card: ['/api/payment/customer/profile'] };

function siteFiles(brand: string): string[] {
  const dir = join(process.env.WEB_DIST_DIR ?? join(ROOT, 'apps', 'web', 'dist'), brand, 'assets');
  return readdirSync(dir)
    .filter((f) => !f.endsWith('.gz') && !f.endsWith('.br'))
    .map((f) => `/assets/${f}`);
}

async function traffic(): Promise<{ requests: number; failed: number }> {
  let requests = 0;
  let failed = 0;
  for (let k = 0; k < loops; k++) {
    for (const [brand, user] of Object.entries(DEMO_USER)) {
      const host = `${brand}.localhost:${port}`;
      const { access_token } = await signIn(`http://127.0.0.1:${port}`, brand, user);
      for (const path of [...LANDING_CALLS, ...(MORE_CALLS[brand] ?? []), ...(k < 3 ? siteFiles(brand) : [])]) {
        const status = await get(path, host, access_token);
        requests++;
        if (status >= 400) failed++;
      }
    }
  }
  return { requests, failed };
}

const stack = await startStack({ port, sandboxPort: port + 10 });
try {
  const pid = listeningPid(port);
  if (pid === null) throw new Error(`nothing listens on ${port}`);
  const measure = async (label: string) => {
    const perRequest: number[] = [];
    for (let i = 1; i <= rounds; i++) {
      const threads0 = threadCpuMs(pid);
      const steal0 = stealMsPerCpu();
      const r = await runLoad(
        { url: stack.url, path: '/health', headers: { host: `card.localhost:${port}` }, connections: 16, duration, warmup: 1, serverPid: pid },
        { cpu: PINNING?.client ?? null, cwd: ROOT },
      );
      const threads = [...threadCpuMs(pid)].map(([name, ms]) => [name, ms - (threads0.get(name) ?? 0)] as const);
      const main = threads.find(([n]) => n === 'main')?.[1] ?? 0;
      const others = threads.filter(([n]) => n !== 'main').reduce((a, [, ms]) => a + ms, 0);
      const steal = stealMsPerCpu().map((ms, c) => ms - (steal0[c] ?? 0));
      if (r.cpuUsPerRequest !== null) perRequest.push(r.cpuUsPerRequest);
      console.log(
        `${label} round ${i}: ${r.rps} req/s, ${r.cpuUsPerRequest} µs CPU/request, errors ${r.errors + r.non2xx}; ` +
          `main thread ${Math.round(main)} ms, other threads ${Math.round(others)} ms; steal ${steal.map((s) => `${Math.round(s)} ms`).join(' / ')}`,
      );
    }
    return median(perRequest);
  };
  const fresh = await measure('fresh');
  const t0 = Date.now();
  const sent = await traffic();
  console.log(
    `traffic: ${sent.requests} requests (${sent.failed} answered 4xx/5xx) and ${loops * Object.keys(DEMO_USER).length} sign-ins in ${Date.now() - t0} ms`,
  );
  const used = await measure('after traffic');
  console.log(
    `/health CPU per request, median round: fresh ${fresh} µs, after traffic ${used} µs (${used >= fresh ? '+' : ''}${Math.round(((used - fresh) / fresh) * 100)}%)`,
  );
} finally {
  await stack.stop();
}
