import { describe, expect, it } from 'vitest';
import { aggregateSteps, compareWorkers, errorCauses, findStalls, type LevelResult, offeredLoad, parseList, type StepSample } from './workload-stats';

const sample = (step: string, ms: number, ok = true, brand = 'card'): StepSample => ({ step, brand, ms, ok, requests: 1, error: ok ? undefined : 'HTTP 500' });

describe('aggregateSteps', () => {
  it('gives each step its nearest-rank p50 and p99 over its own samples', () => {
    const samples = [...Array.from({ length: 100 }, (_, i) => sample('search bills', i + 1)), sample('sign in', 300), sample('sign in', 100)];
    const [search, signIn] = aggregateSteps(samples, ['search bills', 'sign in']);
    expect(search).toMatchObject({ step: 'search bills', count: 100, p50: 50, p99: 99, max: 100, errors: 0 });
    expect(signIn).toMatchObject({ step: 'sign in', count: 2, p50: 100, p99: 300 });
  });

  it('counts failed steps as errors and keeps their latency in the percentiles', () => {
    const samples = [sample('add note', 10), sample('add note', 10), sample('add note', 5000, false)];
    const [note] = aggregateSteps(samples);
    expect(note?.errors).toBe(1);
    expect(note?.p99).toBe(5000);
  });

  it('lists steps in the given order, leaves out steps without samples and adds unknown steps after them', () => {
    const names = aggregateSteps([sample('sign out', 1), sample('extra', 1), sample('sign in', 1)], ['sign in', 'dashboard', 'sign out']).map((s) => s.step);
    expect(names).toEqual(['sign in', 'sign out', 'extra']);
  });

  it('names the brands whose members took the step', () => {
    const [d] = aggregateSteps([sample('dashboard', 1, true, 'finance'), sample('dashboard', 2, true, 'card'), sample('dashboard', 3, true, 'card')]);
    expect(d?.brands).toEqual(['card', 'finance']);
  });
});

describe('errorCauses', () => {
  it('groups failures by step and cause, most frequent first', () => {
    const causes = errorCauses([sample('a', 1, false), sample('b', 1, false), sample('b', 1, false), sample('b', 1)]);
    expect(causes).toEqual([
      { cause: 'b: HTTP 500', count: 2 },
      { cause: 'a: HTTP 500', count: 1 },
    ]);
  });
});

describe('offeredLoad', () => {
  it('is members x requests per cycle / (steps x think time), members split evenly over the plans', () => {
    const plans = [
      {
        brand: 'finance',
        steps: [
          { name: 'a', requests: 1 },
          { name: 'b', requests: 3 },
        ],
      },
      { brand: 'card', steps: [{ name: 'a', requests: 2 }] },
    ];
    // 3 members: two on finance (4 requests per 2 s cycle), one on card (2 requests per 1 s cycle).
    expect(offeredLoad(plans, 3, 1000)).toEqual({ requestsPerSecond: 2 * 2 + 2, stepsPerSecond: 2 * 1 + 1 });
  });
});

describe('compareWorkers', () => {
  const level = (workers: number, members: number, rps: number, p99: number): LevelResult => ({
    workers,
    members,
    seconds: 60,
    requests: rps * 60,
    rps,
    offeredRps: 0,
    steps: [{ step: 'sign in', count: 1, errors: 0, p50: 1, p90: 1, p99, max: p99, brands: ['card'] }],
  });

  it('gives the achieved req/s and per-step p99 of the other run over the base run at the same member count', () => {
    const [c] = compareWorkers([level(1, 200, 400, 300), level(2, 200, 600, 150), level(2, 50, 100, 10)], 1, 2);
    expect(c).toMatchObject({ members: 200, rpsRatio: 1.5, p99Ratio: [{ step: 'sign in', base: 300, other: 150, ratio: 0.5 }] });
  });

  it('leaves out member counts the other run did not measure', () => {
    expect(compareWorkers([level(1, 500, 400, 300), level(2, 200, 600, 150)], 1, 2)).toEqual([]);
  });
});

describe('parseList', () => {
  it('reads a comma-separated list of positive integers and refuses anything else', () => {
    expect(parseList('50, 200,500', [1])).toEqual([50, 200, 500]);
    expect(parseList(undefined, [1, 2])).toEqual([1, 2]);
    expect(() => parseList('50,abc', [])).toThrow(/positive integers/);
    expect(() => parseList('0', [])).toThrow(/positive integers/);
  });
});

describe('findStalls', () => {
  const at = (step: string, start: number, ms: number): StepSample => ({ ...sample(step, ms), at: start });
  const quick = (n: number, step: string, from: number) => Array.from({ length: n }, (_, i) => at(step, from + i * 100, 10));

  it('groups slow steps whose times overlap into one stall and counts the sign-ins that overlapped it', () => {
    const samples = [
      ...quick(50, 'add note', 0),
      ...quick(50, 'sign in', 0),
      at('add note', 1000, 260),
      at('sign in', 1100, 250),
      at('sign in', 1150, 20),
      // A later slow step that does not overlap the first two: a stall of its own.
      at('add note', 4000, 200),
    ];
    const stalls = findStalls(samples, [{ at: 1120, ms: 40 }]);
    expect(stalls).toHaveLength(2);
    expect(stalls[0]).toMatchObject({ from: 1000, to: 1350, worst: 260, membersLate: 40 });
    expect(stalls[0]?.slow).toEqual([
      { step: 'add note', count: 1 },
      { step: 'sign in', count: 1 },
    ]);
    // The slow sign-in, the quick one at 1150, and the quick ones at 1000, 1100, 1200 and 1300.
    expect(stalls[0]?.signIns).toBe(1 + 1 + 4);
    expect(stalls[1]).toMatchObject({ from: 4000, to: 4200, membersLate: 0 });
  });

  it("needs a step to be both over the floor and several times its own step's p90", () => {
    // Sign-ins that take 180 ms as a rule are not a stall at 200 ms; a note at 200 ms among 10 ms notes is.
    const samples = [
      ...Array.from({ length: 20 }, (_, i) => at('sign in', i * 300, 180)),
      at('sign in', 9000, 200),
      ...quick(20, 'add note', 0),
      at('add note', 9000, 200),
    ];
    expect(findStalls(samples).flatMap((s) => s.slow)).toEqual([{ step: 'add note', count: 1 }]);
    expect(findStalls([...quick(20, 'add note', 0), at('add note', 9000, 120)])).toEqual([]);
  });
});
