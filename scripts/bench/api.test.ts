import { describe, expect, it } from 'vitest';
import { HELLO, medianProcess, type TargetResult } from './api';

const measured = (name: string, rps: number, cpu: number | null, errors = 0): TargetResult => ({
  name,
  engine: 'pglite',
  requests: rps * 5,
  seconds: 5,
  rps,
  p50: 0.3,
  p90: 0.5,
  p99: 1,
  max: 2,
  mean: 0.3,
  non2xx: 0,
  errors,
  statuses: { '200': rps * 5 },
  cpuUsPerRequest: cpu,
  rounds: 3,
  roundsRps: [rps, rps, rps],
  roundsCpuUs: [cpu, cpu, cpu],
});

describe('the hello-world baseline measured on several processes', () => {
  it('stands for all of them by the process with the median requests/s, and keeps each figure', () => {
    const result = medianProcess(HELLO, [
      measured(`${HELLO} (process 1)`, 57_000, 17),
      measured(`${HELLO} (process 2)`, 44_000, 22),
      measured(`${HELLO} (process 3)`, 48_000, 20),
    ]);
    expect(result.name).toBe(HELLO);
    expect(result.rps).toBe(48_000);
    expect(result.cpuUsPerRequest).toBe(20);
    expect(result.processesRps).toEqual([57_000, 44_000, 48_000]);
    expect(result.processesCpuUs).toEqual([17, 22, 20]);
  });

  it('counts the errors of every process, not only those of the median one', () => {
    const result = medianProcess(HELLO, [measured('a', 50_000, 18, 2), measured('b', 49_000, 19), measured('c', 40_000, null, 1)]);
    expect(result.rps).toBe(49_000);
    expect(result.errors).toBe(3);
  });
});
