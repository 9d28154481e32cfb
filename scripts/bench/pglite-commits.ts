/**
 * What durable commits cost the embedded database: N single-row commits on PGlite as it ships (no sync)
 * and as the server opens it (fsync per commit), each in a fresh data directory beside DATA_DIR.
 *   node --import tsx scripts/bench/pglite-commits.ts [N]
 */
import fs, { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openPglite } from '@portal/server/kernel';

const n = Number(process.argv[2] ?? 500);
if (!Number.isInteger(n) || n < 1) throw new Error('N must be a positive integer');
// The data directory's own file system: a tmpfs /tmp would hide the cost of a sync.
const parent = resolve(process.env.DATA_DIR ?? '.data');
fs.mkdirSync(parent, { recursive: true });

let syncs = 0;
const fsyncSync = fs.fsyncSync;
fs.fsyncSync = (fd: number) => {
  syncs++;
  fsyncSync(fd);
};

for (const durable of [false, true]) {
  const dir = mkdtempSync(join(parent, 'bench-commits-'));
  try {
    const db = await openPglite(join(dir, 'pgdata'), { durable });
    await db.exec('CREATE TABLE t (id serial PRIMARY KEY, v text NOT NULL)');
    const before = syncs;
    const start = performance.now();
    for (let i = 0; i < n; i++) await db.query('INSERT INTO t (v) VALUES ($1)', [`row ${i}`]);
    const ms = performance.now() - start;
    const calls = syncs - before;
    await db.close();
    console.log(
      `${durable ? 'durable (server default)' : 'as PGlite ships      '}  ${n} commits  ${ms.toFixed(0)} ms  ${(ms / n).toFixed(2)} ms/commit  ${Math.round((n * 1000) / ms)} commits/s  ${calls} fsync calls`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
