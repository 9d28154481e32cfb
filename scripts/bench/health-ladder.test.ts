import { describe, expect, it } from 'vitest';
import { LADDER, ladderTable } from './health-ladder';

const row = (table: string, step: string) => table.split('\n').find((l) => l.startsWith(step)) ?? '';

describe('ladderTable', () => {
  const table = ladderTable([
    { step: 'bare hello-world', cpuUs: [20, 19, 22] },
    { step: 'route', cpuUs: [24, 23, 23] },
    { step: 'envelope', cpuUs: [25, 24.5, 24] },
    { step: 'GET /health', cpuUs: [31, 30, 32] },
  ]);

  it("gives each step its median CPU per request and the bare hello-world's share of it", () => {
    expect(row(table, 'bare hello-world')).toMatch(/^bare hello-world\s+20\.0\s+100%/);
    expect(row(table, 'route')).toMatch(/^route\s+23\.0\s+\+3\.0\s+87%/);
    expect(row(table, 'GET /health')).toMatch(/\s31\.0\s+\+6\.5\s+65%/);
  });

  it('gives what each ladder step adds to the step before it, not to the bare hello-world', () => {
    expect(row(table, 'envelope')).toMatch(/^envelope\s+24\.5\s+\+1\.5\s/);
  });

  it("lists every round's figure", () => {
    expect(row(table, 'GET /health')).toMatch(/31 \/ 30 \/ 32$/);
  });

  it('marks a step without figures and goes on from the last measured step', () => {
    const t = ladderTable([
      { step: 'route', cpuUs: [23] },
      { step: 'envelope', cpuUs: [] },
      { step: 'GET /health', cpuUs: [30] },
    ]);
    expect(row(t, 'envelope')).toMatch(/^envelope\s+-$/);
    expect(row(t, 'GET /health')).toMatch(/^GET \/health\s+30\.0\s+\+7\.0\s+30$/);
  });
});

describe('LADDER', () => {
  it('ends with the real /health and keeps every other step under /api/, where the API headers apply', () => {
    expect(LADDER.at(-1)?.path).toBe('/health');
    for (const l of LADDER.slice(0, -1)) expect(l.path.startsWith('/api/')).toBe(true);
  });
});
