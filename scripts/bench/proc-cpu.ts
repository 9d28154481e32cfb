/**
 * CPU time of a server process, from Linux's /proc: what the API bench reports as CPU per request beside the
 * requests/s. Requests/s on a shared two-core machine swing with other work on it; the CPU a request costs the server
 * swings much less, so it is the steadier way to compare two servers.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ): 100 on every Linux architecture Node runs on. */
const USER_HZ = 100;

/**
 * A /proc stat line (`/proc/<pid>/stat` or `/proc/<pid>/task/<tid>/stat`): the command name (field 2, in parentheses,
 * and it may hold spaces and parentheses of its own) and the fields after it, from the state (field 3) on, so
 * `fields[11]` and `fields[12]` are utime and stime, `fields[13]` and `fields[14]` cutime and cstime, in USER_HZ ticks.
 */
export function parseStat(stat: string): { comm: string; fields: string[] } {
  const close = stat.lastIndexOf(')');
  return { comm: stat.slice(stat.indexOf('(') + 1, close), fields: stat.slice(close + 2).split(' ') };
}

/** User plus system CPU in ms of a parsed stat line, or null when its times are not numbers. */
function cpuMsOf({ fields }: { fields: string[] }): number | null {
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return ((utime + stime) * 1000) / USER_HZ;
}

/** User plus system CPU of the process (all its threads) in ms, or null where /proc cannot tell (not Linux, gone). */
export function processCpuMs(pid: number): number | null {
  try {
    return cpuMsOf(parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8')));
  } catch {
    return null;
  }
}

/** The inodes of sockets listening on a TCP port, from /proc/net/tcp and tcp6. */
export function listeningInodes(port: number, tables: string[] = ['/proc/net/tcp', '/proc/net/tcp6']): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of tables) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; the inode is the tenth field.
      if (f.length > 9 && f[1]?.endsWith(`:${hexPort}`) && f[3] === '0A' && f[9] !== '0') inodes.add(f[9] as string);
    }
  }
  return inodes;
}

/** The process listening on a TCP port (the first that holds one of its listening sockets), or null. */
export function listeningPid(port: number): number | null {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1] as string)) return Number(pid);
      } catch {}
    }
  }
  return null;
}

/**
 * User plus system CPU in ms of each thread of a process, summed by thread name, with the thread whose id is the
 * process's as 'main' (a Node process's JavaScript thread); an empty map where /proc cannot tell. Shows whether work
 * beside the JavaScript (V8's garbage collection helpers, libuv's pool) takes a pinned server's core.
 */
export function threadCpuMs(pid: number, procRoot = '/proc'): Map<string, number> {
  const byName = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`${procRoot}/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tids) {
    try {
      const stat = parseStat(readFileSync(`${procRoot}/${pid}/task/${tid}/stat`, 'utf8'));
      const name = tid === String(pid) ? 'main' : stat.comm;
      const ms = cpuMsOf(stat);
      if (ms !== null) byName.set(name, (byName.get(name) ?? 0) + ms);
    } catch {}
  }
  return byName;
}

/**
 * Time in ms each CPU has been kept from running this machine's work by the hypervisor (steal, /proc/stat's eighth
 * figure per CPU), in CPU order; empty where /proc cannot tell. A figure that grows during a measurement means the
 * VM itself was slowed, whatever the code did.
 */
export function stealMsPerCpu(statFile = '/proc/stat'): number[] {
  let text: string;
  try {
    text = readFileSync(statFile, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => /^cpu\d+ /.test(l))
    .map((l) => (Number(l.trim().split(/\s+/)[8]) * 1000) / USER_HZ);
}
