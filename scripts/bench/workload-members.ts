/**
 * The simulated members of the mixed workload: each is one seeded member login that, over and over, signs in, loads
 * its brand's dashboard, searches its bills, opens one (finance), pages its ledger (card), writes a note, refreshes
 * its token and signs out, thinking between steps as a person would. Every step sends the calls the brand's web
 * pages send (see the plans below), with the brand's host name, the bearer token and the anti-forgery header.
 *
 * Runs in its own process, pinned to the client core by the runner (scripts/bench/workload.ts):
 *   node --import tsx scripts/bench/workload-members.ts <spec.json> <result.json>   → writes one MembersResult as JSON
 *
 * node:http with one keep-alive agent per member (at most 6 sockets, as a browser holds per site) and each member on
 * its own loopback address (127.1.x.y), so the per-address sign-in limit and the server see distinct people.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Lateness, Plan, StepSample } from './workload-stats';

export interface Login {
  userName: string;
  brand: 'finance' | 'card';
  memberId: number;
}

export interface MembersSpec {
  url: string;
  password: string;
  logins: Login[];
  /** Mean think time between steps (ms); each pause is drawn uniformly from 0.5x to 1.5x of it. */
  thinkMs: number;
  /** Seconds before the measurement starts: every member has arrived (arrivalMs), caches and JIT are warm. */
  warmup: number;
  /** Members arrive at times drawn uniformly over this many ms from the start (arrivalSpreadMs). */
  arrivalMs: number;
  duration: number;
  timeoutMs: number;
}

export interface MembersResult {
  seconds: number;
  /** Requests answered (any status) inside the measured window. */
  requests: number;
  samples: StepSample[];
  /** Members that were running when the window closed. */
  active: number;
  /** CPU seconds per second of wall time this process spent (user + system, warm-up included): is the generator busy? */
  cpuPerSecond: number;
  /**
   * The moments in the window this process ran its timers late by more than LATE_MS (its own event loop held up, by
   * its garbage collector or its share of a core): every step waiting then looks slower than the server made it.
   */
  late: Lateness[];
  /** When the measured window opened, in epoch milliseconds (performance.timeOrigin based), to line samples up with other processes' timelines. */
  windowStart: number;
}

/** How often the members' process checks its own timers, and the lateness worth recording (ms). */
const PROBE_MS = 20;
export const LATE_MS = 30;

interface Call {
  method: 'GET' | 'POST';
  path: string;
  json?: unknown;
  form?: Record<string, string>;
}
interface State {
  access: string;
  refresh: string;
  form: string;
  claimIds: number[];
}
interface Step {
  name: string;
  /** Requests the step sends (for the offered load); the step itself sends them. */
  requests: number;
  run(s: State, http: Http): Promise<void>;
}
type Http = (c: Call, s: State | null) => Promise<unknown>;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const monthsAgo = (n: number) => {
  const d = new Date();
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString().slice(0, 10);
};

function signInStep(password: string, userName: string): Step {
  return {
    name: 'sign in',
    requests: 1,
    async run(s, http) {
      const t = (await http({ method: 'POST', path: '/token', form: { grant_type: 'password', UserName: userName, Password: password } }, null)) as {
        access_token: string;
        refresh_token: string;
        form_token: string;
      };
      s.access = t.access_token;
      s.refresh = t.refresh_token;
      s.form = t.form_token;
    },
  };
}

/** The shell's calls after sign-in (identity, lookups) and the dashboard widgets the brand's member sees, in parallel. */
const dashboard = (paths: string[]): Step => ({
  name: 'dashboard',
  requests: paths.length + 2,
  async run(s, http) {
    await Promise.all(['/api/account/user/identity', '/api/lookup/get', ...paths].map((path) => http({ method: 'GET', path }, s)));
  },
});

const common = {
  addNote: {
    name: 'add note',
    requests: 1,
    async run(s, http) {
      await http(
        {
          method: 'POST',
          path: '/api/notes/create',
          json: { NoteText: `Workload note ${Date.now()}: please check my latest bill.`, NoteTypeID: 1, Attachments: [] },
        },
        s,
      );
    },
  } satisfies Step,
  refresh: {
    name: 'refresh token',
    requests: 1,
    async run(s, http) {
      const t = (await http({ method: 'POST', path: '/token', form: { grant_type: 'refresh_token', refresh_token: s.refresh } }, null)) as {
        access_token: string;
        refresh_token: string;
        form_token: string;
      };
      s.access = t.access_token;
      s.refresh = t.refresh_token;
      s.form = t.form_token;
    },
  } satisfies Step,
  signOut: {
    name: 'sign out',
    requests: 1,
    async run(s, http) {
      await http({ method: 'POST', path: '/api/account/user/signout' }, s);
    },
  } satisfies Step,
};

/**
 * Each brand's steps, from its pages: finance has the bills list with detail (ClaimsPage, ClaimDetailPage) but no
 * ledger; card has the pending bills list (PendingClaimsPage, no detail link) and the ledger (LedgerPage).
 */
export function plans(password: string, userName = ''): Record<Login['brand'], Step[]> {
  return {
    finance: [
      signInStep(password, userName),
      // RecentClaimsWidget, the ledger's AdminBalanceWidget (finance enables the ledger for it: the member's own
      // set-aside), RecentNotesWidget, FundingDateWidget (QuickLinksWidget calls nothing).
      dashboard(['/api/dashboard/claims/recent/6', '/api/dashboard/admin/balance', '/api/dashboard/notes', '/api/dashboard/admin/foundingdate']),
      {
        name: 'search bills',
        requests: 1,
        async run(s, http) {
          // ClaimsPage's default (received in the last 6 months, ClaimID descending, 20 a page); now and then a status.
          const status = Math.random() < 0.25 ? { ClaimStatusID: [1, 2, 4, 5, 8][Math.floor(Math.random() * 5)] } : {};
          const r = (await http(
            {
              method: 'POST',
              path: '/api/claims/search',
              json: { ReceivedDateFrom: monthsAgo(6), ReceivedDateTo: day(0), ...status, PageIndex: 0, PageSize: 20, SortColumn: 'ClaimID', SortOrder: 'desc' },
            },
            s,
          )) as { Items: { ClaimID: number }[] };
          s.claimIds = r.Items.map((c) => c.ClaimID);
        },
      },
      {
        name: 'open bill',
        requests: 1,
        async run(s, http) {
          // The member clicks a bill of the list; with an empty page (a status without bills) the newest of the default list.
          let ids = s.claimIds;
          if (ids.length === 0) {
            const r = (await http(
              { method: 'POST', path: '/api/claims/search', json: { PageIndex: 0, PageSize: 20, SortColumn: 'ClaimID', SortOrder: 'desc' } },
              s,
            )) as { Items: { ClaimID: number }[] };
            ids = r.Items.map((c) => c.ClaimID);
          }
          const id = ids[Math.floor(Math.random() * ids.length)];
          if (id === undefined) throw new Error('the member has no bills');
          await http({ method: 'POST', path: '/api/claims/details', json: { ClaimID: id } }, s);
        },
      },
      common.addNote,
      common.refresh,
      common.signOut,
    ],
    card: [
      signInStep(password, userName),
      // CardBankCheckWidget (cards, bank check), AccountBalanceWidget, BalanceByMonthWidget, RecentTransactionsWidget, RecentNotesWidget.
      dashboard([
        '/api/payment/customer/cards',
        '/api/finance/account/validate',
        '/api/dashboard/account/balance',
        '/api/dashboard/balance/month',
        '/api/dashboard/transactions/recent/6',
        '/api/dashboard/notes',
      ]),
      {
        name: 'search bills',
        requests: 1,
        async run(s, http) {
          // PendingClaimsPage: received in the last 90 days, PaidDate descending, 20 a page.
          await http(
            {
              method: 'POST',
              path: '/api/claims/searchAmethyst',
              json: { ReceivedDateFrom: day(-90), PageIndex: 0, PageSize: 20, SortColumn: 'PaidDate', SortOrder: 'desc' },
            },
            s,
          );
        },
      },
      {
        name: 'ledger page 1',
        requests: 3,
        async run(s, http) {
          // LedgerPage: the member header, then the balance (enabled once the member is in); the list beside them.
          await Promise.all([
            http({ method: 'POST', path: '/api/transactions/search', json: ledgerSearch(0) }, s),
            http({ method: 'GET', path: '/api/financials/loadMember' }, s).then(() => http({ method: 'GET', path: '/api/financials/loadBalance' }, s)),
          ]);
        },
      },
      {
        name: 'ledger page 2',
        requests: 1,
        async run(s, http) {
          await http({ method: 'POST', path: '/api/transactions/search', json: ledgerSearch(1) }, s);
        },
      },
      common.addNote,
      common.refresh,
      common.signOut,
    ],
  };
}

/** LedgerPage's list: a year back to today, DateCreated ascending, 20 a page. */
const ledgerSearch = (pageIndex: number) => ({
  PageSize: 20,
  PageIndex: pageIndex,
  SortColumn: 'DateCreated',
  SortOrder: 'asc',
  Query: { From: monthsAgo(12), To: day(0), EmptyFields: false, View: 'ledger' },
});

/** The plans' shapes (step names and request counts) for the offered load and the tables. */
export function planShapes(): Plan[] {
  return Object.entries(plans('')).map(([brand, steps]) => ({ brand, steps: steps.map((s) => ({ name: s.name, requests: s.requests })) }));
}

export const STEP_ORDER = ['sign in', 'dashboard', 'search bills', 'open bill', 'ledger page 1', 'ledger page 2', 'add note', 'refresh token', 'sign out'];

/**
 * How members arrive: `cycle` (the default) spreads their first sign-ins over nine think times (a think time after each
 * step of STEP_ORDER: at least one whole cycle of either plan, whose cycles are 7 and 8 steps), so by the window each is
 * at its own point of its cycle, as independent users are; `think` spreads them over one
 * think time, the bench's method before the seventy-fourth pass, which starts every member's cycle within a few seconds
 * of the others': each step then comes as a wave (the sign-ins' Argon2id included), a wave the random think times only
 * slowly spread (by about 1.4 s a step), and the first waves' bursts fall in the measured window.
 */
export type Arrival = 'cycle' | 'think';
export const arrivalSpreadMs = (arrival: Arrival, thinkMs: number): number => (arrival === 'cycle' ? STEP_ORDER.length * thinkMs : thinkMs);

/** Member i's own loopback address: 127.1.0.1, 127.1.0.2, ... (250 a /24). */
export const memberAddress = (i: number) => `127.1.${Math.floor(i / 250)}.${(i % 250) + 1}`;

class CallError extends Error {}

export async function runMembers(spec: MembersSpec): Promise<MembersResult> {
  const u = new URL(spec.url);
  const t0 = performance.now();
  const measureFrom = t0 + spec.warmup * 1000;
  const stopAt = measureFrom + spec.duration * 1000;
  const samples: StepSample[] = [];
  let requests = 0;
  let active = 0;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const think = () => sleep(spec.thinkMs * (0.5 + Math.random()));

  const member = async (login: Login, index: number) => {
    const localAddress = memberAddress(index);
    const agent = new Agent({ keepAlive: true, maxSockets: 6 });
    const host = `${login.brand}.localhost:${u.port}`;
    const http: Http = (c, s) =>
      new Promise((resolve, reject) => {
        const body = c.form ? new URLSearchParams(c.form).toString() : c.json === undefined ? undefined : JSON.stringify(c.json);
        const headers: Record<string, string> = { host, 'cache-control': 'no-cache' };
        if (s) {
          headers.authorization = `Bearer ${s.access}`;
          headers['x-form-token'] = s.form;
        }
        if (body !== undefined) {
          headers['content-type'] = c.form ? 'application/x-www-form-urlencoded' : 'application/json';
          headers['content-length'] = String(Buffer.byteLength(body));
        }
        const req = request({ hostname: u.hostname, port: u.port, path: c.path, method: c.method, headers, agent, localAddress }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => {
            const now = performance.now();
            if (now >= measureFrom && now <= stopAt) requests++;
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            if (status < 200 || status > 299) return reject(new CallError(`HTTP ${status} ${c.method} ${c.path}`));
            try {
              const v = text ? (JSON.parse(text) as unknown) : null;
              if (v && typeof v === 'object' && 'HasError' in v) {
                const e = v as { HasError: boolean; Data: unknown; MsgText: string | null };
                if (e.HasError) return reject(new CallError(`error answer ${c.method} ${c.path}: ${e.MsgText}`));
                return resolve(e.Data);
              }
              resolve(v);
            } catch {
              reject(new CallError(`not JSON ${c.method} ${c.path}`));
            }
          });
          res.on('error', reject);
        });
        // A deadline from the moment the request is made, connecting and queueing in the agent included.
        const deadline = setTimeout(() => req.destroy(new CallError(`timeout ${c.method} ${c.path}`)), spec.timeoutMs);
        req.on('close', () => clearTimeout(deadline));
        req.on('error', (e: NodeJS.ErrnoException) => reject(e instanceof CallError ? e : new CallError(`${e.code ?? e.message} ${c.method} ${c.path}`)));
        req.end(body);
      });
    const steps = plans(spec.password, login.userName)[login.brand];
    // Members arrive spread over arrivalMs (a whole cycle by default: arrivalSpreadMs) instead of all at once.
    await sleep(Math.random() * spec.arrivalMs);
    active++;
    try {
      while (performance.now() < stopAt) {
        const state: State = { access: '', refresh: '', form: '', claimIds: [] };
        for (const step of steps) {
          if (performance.now() >= stopAt) break;
          const start = performance.now();
          let error: string | undefined;
          try {
            await step.run(state, http);
          } catch (e) {
            error = (e as Error).message;
          }
          const end = performance.now();
          if (start >= measureFrom && end <= stopAt)
            samples.push({
              step: step.name,
              brand: login.brand,
              ms: Math.round((end - start) * 100) / 100,
              ok: !error,
              requests: step.requests,
              error,
              at: Math.round((start - measureFrom) * 100) / 100,
            });
          await think();
          // Without a session the rest of the cycle cannot run: start again with a sign-in, as the web page would.
          if (error && (step.name === 'sign in' || step.name === 'refresh token')) break;
        }
      }
    } finally {
      active--;
      agent.destroy();
    }
  };

  const late: Lateness[] = [];
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    const by = now - last - PROBE_MS;
    if (by > LATE_MS && now - by >= measureFrom && now <= stopAt) late.push({ at: Math.round(now - by - measureFrom), ms: Math.round(by) });
    last = now;
  }, PROBE_MS);
  let stillActive = 0;
  const closing = setTimeout(
    () => {
      stillActive = active;
    },
    Math.max(0, stopAt - performance.now()),
  );
  await Promise.all(spec.logins.map((l, i) => member(l, i)));
  clearTimeout(closing);
  clearInterval(probe);
  const cpu = process.cpuUsage();
  const cpuPerSecond = Math.round(((cpu.user + cpu.system) / 1e6 / ((performance.now() - t0) / 1000)) * 100) / 100;
  return { seconds: spec.duration, requests, samples, active: stillActive, cpuPerSecond, late, windowStart: performance.timeOrigin + measureFrom };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const spec = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as MembersSpec;
  runMembers(spec).then(
    (r) => {
      // To a file: megabytes of samples written to a pipe would be cut short by the exit.
      writeFileSync(process.argv[3] ?? 'workload-result.json', JSON.stringify(r));
      process.exit(0);
    },
    (e: unknown) => {
      console.error((e as Error).stack ?? String(e));
      process.exit(1);
    },
  );
}
