/**
 * The pure parts of the mixed member workload (scripts/bench/workload.ts): step samples to per-step figures, the
 * offered load of a step plan, and the comparison of two runs (2 API processes against 1). No I/O here.
 */
import { percentile } from './load';

/** One step of one simulated member: which step, on which brand, how long the member waited, whether it worked. */
export interface StepSample {
  step: string;
  brand: string;
  /** Milliseconds from the step's first request to its last answer (the step's calls run as the page runs them). */
  ms: number;
  ok: boolean;
  /** HTTP requests the step sent. */
  requests: number;
  /** Why it failed: 'HTTP 500 POST /api/notes/create', 'timeout GET ...', 'ECONNRESET ...'. */
  error?: string;
  /** When the step started: milliseconds since the measured window opened. */
  at?: number;
}

export interface StepStats {
  step: string;
  /** Steps measured (failed ones included). */
  count: number;
  errors: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Brands whose members take this step. */
  brands: string[];
}

const r2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Per-step latency figures, steps in `order` first (then any other step in the order first seen). Latencies of
 * failed steps count too: an error is as slow as it was, and an error hidden from p99 would flatter it.
 */
export function aggregateSteps(samples: readonly StepSample[], order: readonly string[] = []): StepStats[] {
  const by = new Map<string, { ms: number[]; errors: number; brands: Set<string> }>();
  for (const name of order) by.set(name, { ms: [], errors: 0, brands: new Set() });
  for (const s of samples) {
    let e = by.get(s.step);
    if (!e) {
      e = { ms: [], errors: 0, brands: new Set() };
      by.set(s.step, e);
    }
    e.ms.push(s.ms);
    if (!s.ok) e.errors++;
    e.brands.add(s.brand);
  }
  const out: StepStats[] = [];
  for (const [step, e] of by) {
    if (e.ms.length === 0) continue;
    const sorted = Float64Array.from(e.ms).sort();
    out.push({
      step,
      count: sorted.length,
      errors: e.errors,
      p50: r2(percentile(sorted, 50)),
      p90: r2(percentile(sorted, 90)),
      p99: r2(percentile(sorted, 99)),
      max: r2(sorted[sorted.length - 1] as number),
      brands: [...e.brands].sort(),
    });
  }
  return out;
}

/** The errors of a run by cause, most frequent first. */
export function errorCauses(samples: readonly StepSample[]): { cause: string; count: number }[] {
  const n = new Map<string, number>();
  for (const s of samples) if (!s.ok) n.set(`${s.step}: ${s.error ?? 'failed'}`, (n.get(`${s.step}: ${s.error ?? 'failed'}`) ?? 0) + 1);
  return [...n].map(([cause, count]) => ({ cause, count })).sort((a, b) => b.count - a.count);
}

/** A brand's plan: its steps in order and the requests each sends. */
export interface Plan {
  brand: string;
  steps: { name: string; requests: number }[];
}

/**
 * The load the members offer: what they would send per second if every answer came at once, so each cycle lasts
 * only its think times (one after every step). Members are spread evenly over the plans, as the runner assigns them.
 */
export function offeredLoad(plans: readonly Plan[], members: number, thinkMs: number): { requestsPerSecond: number; stepsPerSecond: number } {
  if (plans.length === 0 || members <= 0 || thinkMs <= 0) return { requestsPerSecond: 0, stepsPerSecond: 0 };
  let rps = 0;
  let sps = 0;
  plans.forEach((p, i) => {
    // Member k takes plan k % plans.length.
    const share = Math.floor(members / plans.length) + (i < members % plans.length ? 1 : 0);
    const cycle = (p.steps.length * thinkMs) / 1000;
    rps += (share * p.steps.reduce((a, s) => a + s.requests, 0)) / cycle;
    sps += (share * p.steps.length) / cycle;
  });
  return { requestsPerSecond: r2(rps), stepsPerSecond: r2(sps) };
}

/** One level's figures as the runner keeps them. */
export interface LevelResult {
  workers: number;
  members: number;
  seconds: number;
  requests: number;
  /** Requests answered per second over the measured window. */
  rps: number;
  offeredRps: number;
  steps: StepStats[];
}

export interface Comparison {
  members: number;
  base: number;
  other: number;
  /** other / base of the achieved requests/s. */
  rpsRatio: number | null;
  /** Per step: other's p99 / base's p99 (below 1: the other is faster). */
  p99Ratio: { step: string; base: number; other: number; ratio: number | null }[];
}

const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? Math.round((a / b) * 100) / 100 : null);

/** `other` workers against `base` workers at every member count both ran. */
export function compareWorkers(levels: readonly LevelResult[], base: number, other: number): Comparison[] {
  const out: Comparison[] = [];
  for (const b of levels.filter((l) => l.workers === base)) {
    const o = levels.find((l) => l.workers === other && l.members === b.members);
    if (!o) continue;
    out.push({
      members: b.members,
      base,
      other,
      rpsRatio: ratio(o.rps, b.rps),
      p99Ratio: b.steps.map((s) => {
        const os = o.steps.find((x) => x.step === s.step);
        return { step: s.step, base: s.p99, other: os?.p99 ?? Number.NaN, ratio: os ? ratio(os.p99, s.p99) : null };
      }),
    });
  }
  return out;
}

/** A comma-separated list of positive integers ('50,200,500'), or the fallback when absent. */
export function parseList(text: string | undefined, fallback: number[]): number[] {
  if (text === undefined) return fallback;
  const xs = text.split(',').map((x) => Number(x.trim()));
  if (xs.length === 0 || xs.some((x) => !Number.isInteger(x) || x <= 0)) throw new Error(`not a list of positive integers: ${text}`);
  return xs;
}

/** A moment the members' own process was late to run its timers (its event loop held up): it delays every answer it reads then. */
export interface Lateness {
  /** Milliseconds since the measured window opened. */
  at: number;
  ms: number;
}

/**
 * A stall: slow steps whose times overlap, with what was going on while they waited. A step is slow when it took
 * at least `minMs` and `factor` times its own step's p90 (STALL_MIN_MS and STALL_FACTOR unless told).
 */
export interface Stall {
  /** Milliseconds since the measured window opened: the first slow step's start to the last one's end. */
  from: number;
  to: number;
  /** The slow steps in it, by step, most first. */
  slow: { step: string; count: number }[];
  /** The slowest of them (ms). */
  worst: number;
  /** Steps of any speed that overlapped the stall, and how many of them were sign-ins (a password hash each). */
  overlapping: number;
  signIns: number;
  /** The members' process's own lateness inside the stall (ms, the most of any moment; 0 when it was on time). */
  membersLate: number;
}

/** A slow step: at least this long (ms) and STALL_FACTOR times its step's p90. */
export const STALL_MIN_MS = 150;
export const STALL_FACTOR = 3;

export function findStalls(
  samples: readonly StepSample[],
  late: readonly Lateness[] = [],
  { minMs = STALL_MIN_MS, factor = STALL_FACTOR }: { minMs?: number; factor?: number } = {},
): Stall[] {
  const p90 = new Map(aggregateSteps(samples).map((s) => [s.step, s.p90]));
  const slow = samples
    .filter((s) => s.at !== undefined && s.ms >= minMs && s.ms >= factor * (p90.get(s.step) ?? 0))
    .sort((a, b) => (a.at as number) - (b.at as number));
  const groups: StepSample[][] = [];
  let end = Number.NEGATIVE_INFINITY;
  for (const s of slow) {
    const at = s.at as number;
    if (at <= end) groups[groups.length - 1]?.push(s);
    else groups.push([s]);
    end = Math.max(at <= end ? end : Number.NEGATIVE_INFINITY, at + s.ms);
  }
  return groups.map((g) => {
    const from = Math.min(...g.map((s) => s.at as number));
    const to = Math.max(...g.map((s) => (s.at as number) + s.ms));
    const by = new Map<string, number>();
    for (const s of g) by.set(s.step, (by.get(s.step) ?? 0) + 1);
    const over = samples.filter((s) => s.at !== undefined && s.at < to && s.at + s.ms > from);
    const lateInside = late.filter((l) => l.at < to && l.at + l.ms > from);
    return {
      from: r2(from),
      to: r2(to),
      slow: [...by].map(([step, count]) => ({ step, count })).sort((a, b) => b.count - a.count || a.step.localeCompare(b.step)),
      worst: r2(Math.max(...g.map((s) => s.ms))),
      overlapping: over.length,
      signIns: over.filter((s) => s.step === 'sign in').length,
      membersLate: r2(Math.max(0, ...lateInside.map((l) => l.ms))),
    };
  });
}
