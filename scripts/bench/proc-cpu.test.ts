import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateLoad } from './load';
import { listeningInodes, listeningPid, processCpuMs, stealMsPerCpu, threadCpuMs } from './proc-cpu';

const linux = process.platform === 'linux';
const dir = mkdtempSync(join(tmpdir(), 'proc-cpu-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('server CPU from /proc', () => {
  it('finds the inodes of listening sockets on a port, and only those', () => {
    const table = join(dir, 'tcp');
    writeFileSync(
      table,
      [
        '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
        '   0: 0100007F:2189 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 111 1 0000000000000000 100 0 0 10 0',
        '   1: 0100007F:2189 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 222 1 0000000000000000 20 4 30 10 -1',
        '   2: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 333 1 0000000000000000 100 0 0 10 0',
      ].join('\n'),
    );
    // 0x2189 = 8585: the listening socket, not the established connection on the same port.
    expect([...listeningInodes(8585, [table])]).toEqual(['111']);
    expect([...listeningInodes(8080, [table])]).toEqual(['333']);
    expect(listeningInodes(9999, [table]).size).toBe(0);
  });

  it.runIf(linux)('reads a process CPU time that grows with work, and null for a process that does not exist', () => {
    const before = processCpuMs(process.pid);
    expect(before).not.toBeNull();
    // Busy until 30 ms of CPU show (ticks are 10 ms; a busy machine gives this process less than its wall time).
    const until = performance.now() + 10_000;
    let x = 0;
    while (performance.now() < until && (processCpuMs(process.pid) as number) - (before as number) < 30) {
      for (let i = 0; i < 100_000; i++) x += Math.sqrt(x + i);
    }
    expect(x).toBeGreaterThan(0);
    expect((processCpuMs(process.pid) as number) - (before as number)).toBeGreaterThanOrEqual(30);
    expect(processCpuMs(2 ** 22 + 7)).toBeNull();
  });

  it.runIf(linux)('names the process listening on a port, and the load generator reports its CPU per request', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      expect(listeningPid(port)).toBe(process.pid);
      const result = await generateLoad({ url: `http://127.0.0.1:${port}`, path: '/', connections: 2, duration: 0.5, warmup: 0, serverPid: process.pid });
      expect(result.requests).toBeGreaterThan(0);
      expect(result.cpuUsPerRequest).toBeGreaterThan(0);
      const without = await generateLoad({ url: `http://127.0.0.1:${port}`, path: '/', connections: 1, duration: 0.2, warmup: 0 });
      expect(without.cpuUsPerRequest).toBeNull();
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it("sums each thread's CPU by name, the process's own thread as main, names with spaces and parentheses kept whole", () => {
    const root = join(dir, 'proc');
    const thread = (tid: number, name: string, utime: number, stime: number) => {
      mkdirSync(join(root, '4242', 'task', String(tid)), { recursive: true });
      // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
      writeFileSync(
        join(root, '4242', 'task', String(tid), 'stat'),
        `${tid} (${name}) S 1 4242 4242 0 -1 4194560 10 0 0 0 ${utime} ${stime} 0 0 20 0 9 0 5 0 0\n`,
      );
    };
    thread(4242, 'node', 300, 50);
    thread(4243, 'V8 DefaultWorke', 7, 1);
    thread(4244, 'V8 DefaultWorke', 2, 0);
    thread(4245, 'libuv (worker)', 0, 4);
    const cpu = threadCpuMs(4242, root);
    expect(Object.fromEntries(cpu)).toEqual({ main: 3500, 'V8 DefaultWorke': 100, 'libuv (worker)': 40 });
    expect(threadCpuMs(4243, root).size).toBe(0);
  });

  it("reads each CPU's steal time from /proc/stat, in CPU order, and nothing from a missing file", () => {
    const stat = join(dir, 'stat');
    writeFileSync(
      stat,
      [
        'cpu  254407 17736 72920 376859 1923 0 13276 611 0 0',
        'cpu0 141393 9047 37955 173418 749 0 8435 266 0 0',
        'cpu1 113014 8688 34965 203440 1174 0 4841 345 0 0',
        'intr 123 0 0',
        'ctxt 99',
      ].join('\n'),
    );
    expect(stealMsPerCpu(stat)).toEqual([2660, 3450]);
    expect(stealMsPerCpu(join(dir, 'no-such-stat'))).toEqual([]);
  });
});
