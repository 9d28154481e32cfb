/**
 * CPU time of a server process, from Linux's /proc: what the API bench reports as CPU per request beside the
 * requests/s. Requests/s on a shared two-core machine swing with other work on it; the CPU a request costs the server
 * swings much less, so it is the steadier way to compare two servers.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ): 100 on every Linux architecture Node runs on. */
const USER_HZ = 100;

/** User plus system CPU of the process (all its threads) in ms, or null where /proc cannot tell (not Linux, gone). */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
    return ((utime + stime) * 1000) / USER_HZ;
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
