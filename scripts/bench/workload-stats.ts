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
