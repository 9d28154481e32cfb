import { describe, expect, it } from 'vitest';
import { type CpuTick, cpuBetween, machineCpu, startCpuTimeline } from './cpu-timeline';

const tick = (at: number, run: number, wait: number, busy = 0, steal = 0): CpuTick => ({ at, groups: { api: { run, wait } }, machine: { busy, steal } });

describe('cpuBetween', () => {
  it('reads a span from the ticks that enclose it', () => {
    const ticks = [tick(0, 0, 0), tick(100, 50, 10, 100, 0), tick(200, 150, 90, 300, 20), tick(300, 160, 95, 350, 20)];
    expect(cpuBetween(ticks, 120, 190)).toEqual({ span: 100, groups: { api: { run: 100, wait: 80 } }, machine: { busy: 200, steal: 20 } });
    expect(cpuBetween(ticks, 100, 300)).toEqual({ span: 200, groups: { api: { run: 110, wait: 85 } }, machine: { busy: 250, steal: 20 } });
  });

  it('gives nothing for a span the timeline does not cover', () => {
    expect(cpuBetween([tick(100, 0, 0), tick(200, 1, 1)], 50, 150)).toBeNull();
    expect(cpuBetween([tick(100, 0, 0), tick(200, 1, 1)], 150, 250)).toBeNull();
  });
});

describe('machineCpu', () => {
  it("reads the cores' busy time (user, nice, system, irq, softirq) and steal from /proc/stat's first line, in ms", () => {
    expect(machineCpu('cpu  100 2 30 5000 7 1 4 9 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n')).toEqual({ busy: 1370, steal: 90 });
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
