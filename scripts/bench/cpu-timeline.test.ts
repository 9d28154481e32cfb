import { describe, expect, it } from 'vitest';
import { type CpuTick, cpuBetween, machineCpu, startCpuTimeline } from './cpu-timeline';

const tick = (at: number, run: number, wait: number, busy = 0, steal = 0): CpuTick => ({
  at,
  groups: { api: { run, wait } },
  machine: { busy, steal, system: 0, interrupts: 0, forks: 0 },
});

describe('cpuBetween', () => {
  it('reads a span from the ticks that enclose it', () => {
    const ticks = [tick(0, 0, 0), tick(100, 50, 10, 100, 0), tick(200, 150, 90, 300, 20), tick(300, 160, 95, 350, 20)];
    expect(cpuBetween(ticks, 120, 190)).toEqual({
      span: 100,
      groups: { api: { run: 100, wait: 80 } },
      machine: { busy: 200, steal: 20, system: 0, interrupts: 0, forks: 0 },
      others: [],
      othersSpan: 0,
    });
    expect(cpuBetween(ticks, 100, 300)).toMatchObject({ span: 200, groups: { api: { run: 110, wait: 85 } }, machine: { busy: 250, steal: 20 } });
  });

  it('names the busiest processes outside the groups, from the coarser ticks that read every process', () => {
    const ticks: CpuTick[] = [
      { ...tick(0, 0, 0), procs: { 10: ['node', 100], 20: ['kdamond.0', 500], 30: ['postgres', 50], 40: ['bash', 0] } },
      tick(100, 10, 0),
      tick(200, 20, 0),
      { ...tick(500, 30, 0), procs: { 10: ['node', 300], 20: ['kdamond.0', 740], 30: ['postgres', 60], 40: ['bash', 0], 50: ['new', 20] } },
    ];
    // node (pid 10) is one of the groups' processes: not an other.
    const span = cpuBetween(ticks, 150, 180, new Set([10]));
    expect(span?.others).toEqual([
      { name: 'kdamond.0', ms: 240 },
      { name: 'new', ms: 20 },
      { name: 'postgres', ms: 10 },
    ]);
    expect(span?.othersSpan).toBe(500);
  });

  it('gives nothing for a span the timeline does not cover', () => {
    expect(cpuBetween([tick(100, 0, 0), tick(200, 1, 1)], 50, 150)).toBeNull();
    expect(cpuBetween([tick(100, 0, 0), tick(200, 1, 1)], 150, 250)).toBeNull();
  });
});

describe('machineCpu', () => {
  it("reads the cores' busy time (user, nice, system, irq, softirq) and steal from /proc/stat's first line, in ms", () => {
    expect(machineCpu('cpu  100 2 30 5000 7 1 4 9 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nctxt 99\nprocesses 4321\n')).toEqual({
      busy: 1370,
      steal: 90,
      system: 300,
      interrupts: 50,
      forks: 4321,
    });
  });
});

describe('startCpuTimeline', () => {
  it("counts the CPU time this process's threads spend between its ticks", async () => {
    const timeline = startCpuTimeline({ self: () => [process.pid] }, 10);
    await new Promise((r) => setTimeout(r, 30));
    const spin = performance.now();
    while (performance.now() - spin < 80) {}
    await new Promise((r) => setTimeout(r, 30));
    const ticks = timeline.stop();
    const first = ticks[0]?.groups.self?.run ?? 0;
    const last = ticks[ticks.length - 1]?.groups.self?.run ?? 0;
    // The busy loop alone ran 80 ms on this thread; the count cannot be below most of it.
    expect(last - first).toBeGreaterThanOrEqual(60);
    expect(ticks.every((t, i) => i === 0 || t.at >= (ticks[i - 1] as CpuTick).at)).toBe(true);
  });
});
