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
  machine: MachineCpu;
  /**
   * Every 5th tick: every process on the machine with its CPU so far (ms, user + system, all its threads; /proc/<pid>/stat
   * at 1/100 s), to name who else was busy during a stall.
   */
  procs?: Record<number, [comm: string, ms: number]>;
}

/** Every process's command name and CPU so far (ms). */
function everyProcess(): Record<number, [string, number]> {
  const out: Record<number, [string, number]> = {};
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const f = stat.slice(close + 2).split(' ');
      out[Number(d)] = [stat.slice(stat.indexOf('(') + 1, close), (Number(f[11]) + Number(f[12])) * 10];
    } catch {}
  }
  return out;
}

/** /proc/stat's first line: user nice system idle iowait irq softirq steal ... in clock ticks of 1/100 s. */
export function machineCpu(stat: string): MachineCpu {
  const f = (stat.split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = f;
  const forks = Number(/^processes (\d+)$/m.exec(stat)?.[1] ?? 0);
  return { busy: (user + nice + system + irq + softirq) * 10, steal: steal * 10, system: system * 10, interrupts: (irq + softirq) * 10, forks };
}

/** The cores' busy time (ms, summed over cores), and of it the kernel's own (system) and interrupts' (irq, softirq); stolen time. */
export interface MachineCpu {
  busy: number;
  steal: number;
  system: number;
  interrupts: number;
  /** Processes and threads created since boot (/proc/stat `processes`): short-lived ones that no tick saw still count here. */
  forks: number;
}
const readMachine = () => {
  try {
    return machineCpu(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return { busy: 0, steal: 0, system: 0, interrupts: 0, forks: 0 };
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
export function startCpuTimeline(groups: Record<string, () => number[]>, everyMs = 100): { stop(): CpuTick[]; grouped(): ReadonlySet<number> } {
  const names = Object.keys(groups);
  const pidsOf = new Map<string, number[]>();
  const refresh = () => {
    for (const g of names) pidsOf.set(g, groups[g]?.() ?? []);
  };
  refresh();
  const last = new Map<string, GroupCpu>();
  const total = Object.fromEntries(names.map((g) => [g, { run: 0, wait: 0 }])) as Record<string, GroupCpu>;
  const ticks: CpuTick[] = [];
  /** Every process any group had, for telling the others apart. */
  const grouped = new Set<number>();
  const sample = (withProcs: boolean) => {
    for (const pids of pidsOf.values()) for (const pid of pids) grouped.add(pid);
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
    ticks.push({
      at: now(),
      groups: Object.fromEntries(names.map((g) => [g, { ...(total[g] as GroupCpu) }])),
      machine: readMachine(),
      ...(withProcs ? { procs: everyProcess() } : {}),
    });
  };
  sample(true);
  let n = 0;
  const timer = setInterval(() => {
    n++;
    if (n % Math.max(1, Math.round(1000 / everyMs)) === 0) refresh();
    sample(n % PROCS_EVERY === 0);
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample(true);
      return ticks;
    },
    grouped: () => grouped,
  };
}

/** Every how many ticks the whole machine's processes are read (a few hundred files: not every tick). */
const PROCS_EVERY = 5;

/**
 * What each group used between `from` and `to` (epoch ms), from the ticks that enclose the span (so the span read is
 * at least as long as asked, by up to one interval on each side): run and wait ms, and the span read.
 */
export interface CpuSpan {
  span: number;
  groups: Record<string, GroupCpu>;
  machine: MachineCpu;
  /**
   * The busiest processes outside the groups (`grouped`) over the span read at the coarser ticks that have every
   * process (`othersSpan`, ms, at least `span`), most first: who else had the cores.
   */
  others: { name: string; ms: number }[];
  othersSpan: number;
}

/** What the processes outside `grouped` used between two ticks that read every process, busiest first. */
function othersBetween(a: CpuTick, b: CpuTick, grouped: ReadonlySet<number>, top: number): { name: string; ms: number }[] {
  const out: { name: string; ms: number }[] = [];
  for (const [pid, [name, ms]] of Object.entries(b.procs ?? {})) {
    if (grouped.has(Number(pid))) continue;
    // A process first seen at the end started during the span: all its time is in it.
    const used = ms - (a.procs?.[Number(pid)]?.[1] ?? 0);
    if (used > 0) out.push({ name, ms: used });
  }
  return out.sort((x, y) => y.ms - x.ms || x.name.localeCompare(y.name)).slice(0, top);
}

export function cpuBetween(ticks: readonly CpuTick[], from: number, to: number, grouped: ReadonlySet<number> = new Set()): CpuSpan | null {
  let a: CpuTick | undefined;
  let b: CpuTick | undefined;
  let pa: CpuTick | undefined;
  let pb: CpuTick | undefined;
  for (const t of ticks) {
    if (t.at <= from) a = t;
    if (t.at >= to && !b) b = t;
    if (t.procs && t.at <= from) pa = t;
    if (t.procs && t.at >= to && !pb) pb = t;
  }
  if (!a || !b) return null;
  const others = pa && pb ? othersBetween(pa, pb, grouped, 3) : [];
  const groups: Record<string, GroupCpu> = {};
  for (const [g, v] of Object.entries(b.groups)) {
    const u = a.groups[g] ?? { run: 0, wait: 0 };
    groups[g] = { run: Math.round(v.run - u.run), wait: Math.round(v.wait - u.wait) };
  }
  return {
    span: Math.round(b.at - a.at),
    groups,
    machine: {
      busy: b.machine.busy - a.machine.busy,
      steal: b.machine.steal - a.machine.steal,
      system: b.machine.system - a.machine.system,
      interrupts: b.machine.interrupts - a.machine.interrupts,
      forks: b.machine.forks - a.machine.forks,
    },
    others,
    othersSpan: pa && pb ? Math.round(pb.at - pa.at) : 0,
  };
}
