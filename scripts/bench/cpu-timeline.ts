/**
 * A timeline of CPU use by groups of processes (the API, PostgreSQL, the members' process) while the workload runs:
 * every `everyMs`, the time each group's threads ran and the time they waited, runnable, for a core
 * (/proc/<pid>/task/<tid>/schedstat: run ns, wait ns), and the machine's busy and stolen time (/proc/stat). What a
 * stall of the workload overlapped is then read from it (`cpuBetween`): a stall in which the server's threads mostly
 * waited for a core is the machine's CPU, not the code; busy cores that none of the groups used are someone else's.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Milliseconds a group's threads ran and waited for a core, summed since the timeline started. */
export interface GroupCpu {
  run: number;
  wait: number;
}
export interface CpuTick {
  /** Epoch milliseconds (performance.timeOrigin + performance.now()). */
  at: number;
  groups: Record<string, GroupCpu>;
  /**
   * The whole machine, summed over its cores since boot (ms, /proc/stat at 1/100 s): time the cores were busy with
   * anything, and time the hypervisor gave another guest while this one had work (steal).
   */
  machine: { busy: number; steal: number };
}

/** /proc/stat's first line: user nice system idle iowait irq softirq steal ... in clock ticks of 1/100 s. */
export function machineCpu(stat: string): { busy: number; steal: number } {
  const f = (stat.split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = f;
  return { busy: (user + nice + system + irq + softirq) * 10, steal: steal * 10 };
}
const readMachine = () => {
  try {
    return machineCpu(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return { busy: 0, steal: 0 };
  }
};

const now = () => performance.timeOrigin + performance.now();

function schedstat(pid: number): Map<number, GroupCpu> {
  const out = new Map<number, GroupCpu>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tids) {
    try {
      const [run, wait] = readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ');
      out.set(Number(t), { run: Number(run) / 1e6, wait: Number(wait) / 1e6 });
    } catch {}
  }
  return out;
}

/**
 * Starts sampling. `pids(group)` lists a group's processes now (called once a second: backends and workers come and
 * go). A thread that ends between two ticks keeps what it had counted; its last interval is lost (at most `everyMs`).
 */
export function startCpuTimeline(groups: Record<string, () => number[]>, everyMs = 100): { stop(): CpuTick[] } {
  const names = Object.keys(groups);
  const pidsOf = new Map<string, number[]>();
  const refresh = () => {
    for (const g of names) pidsOf.set(g, groups[g]?.() ?? []);
  };
  refresh();
  const last = new Map<string, GroupCpu>();
  const total = Object.fromEntries(names.map((g) => [g, { run: 0, wait: 0 }])) as Record<string, GroupCpu>;
  const ticks: CpuTick[] = [];
  const sample = () => {
    for (const g of names) {
      const sum = total[g] as GroupCpu;
      for (const pid of pidsOf.get(g) ?? [])
        for (const [tid, v] of schedstat(pid)) {
          const key = `${pid}/${tid}`;
          const before = last.get(key);
          // A thread first seen now: its earlier time is not part of the timeline.
          if (before) {
            sum.run += Math.max(0, v.run - before.run);
            sum.wait += Math.max(0, v.wait - before.wait);
          }
          last.set(key, v);
        }
    }
    ticks.push({ at: now(), groups: Object.fromEntries(names.map((g) => [g, { ...(total[g] as GroupCpu) }])), machine: readMachine() });
  };
  sample();
  let n = 0;
  const timer = setInterval(() => {
    if (++n % Math.max(1, Math.round(1000 / everyMs)) === 0) refresh();
    sample();
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return ticks;
    },
  };
}

/**
 * What each group used between `from` and `to` (epoch ms), from the ticks that enclose the span (so the span read is
 * at least as long as asked, by up to one interval on each side): run and wait ms, and the span read.
 */
export interface CpuSpan {
  span: number;
  groups: Record<string, GroupCpu>;
  machine: { busy: number; steal: number };
}

export function cpuBetween(ticks: readonly CpuTick[], from: number, to: number): CpuSpan | null {
  let a: CpuTick | undefined;
  let b: CpuTick | undefined;
  for (const t of ticks) {
    if (t.at <= from) a = t;
    if (t.at >= to && !b) b = t;
  }
  if (!a || !b) return null;
  const groups: Record<string, GroupCpu> = {};
  for (const [g, v] of Object.entries(b.groups)) {
    const u = a.groups[g] ?? { run: 0, wait: 0 };
    groups[g] = { run: Math.round(v.run - u.run), wait: Math.round(v.wait - u.wait) };
  }
  return { span: Math.round(b.at - a.at), groups, machine: { busy: b.machine.busy - a.machine.busy, steal: b.machine.steal - a.machine.steal } };
}
