/**
 * What the search boxes' folding (foldSql) costs beside lower() alone: one word searched over 100,000 names with none,
 * one in fifty and half of them accented, on PGlite and, with DATABASE_URL, on PostgreSQL. A diagnostic (no budget):
 *   node --import tsx scripts/bench/search-fold.ts [--rounds 5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { foldSql } from '@portal/server';
import { openPglite } from '@portal/server/kernel';
import pg from 'pg';
import { median, option } from './lib';

const rounds = Number(option('rounds', '5'));
const ACCENTED = ['José Núñez', 'Łukasz Wałęsa', 'Søren Kierkegård', 'Zoë Peña', 'Ærø Strauß'];
const PLAIN = ['John Smith', 'Mary Johnson', 'Robert Brown', 'Linda Davis', 'Anne-Marie Jones'];
const list = (names: string[]) => `ARRAY[${names.map((n) => `'${n}'`).join(', ')}]`;
type Query = (sql: string) => Promise<unknown>;

async function measure(engine: string, query: Query): Promise<void> {
  for (const [label, every] of [
    ['no accents', 0],
    ['1 in 50 accented', 50],
    ['half accented', 2],
  ] as const) {
    const accented = every ? `i % ${every} = 0` : 'false';
    await query('DROP TABLE IF EXISTS fold_bench');
    await query(
      `CREATE TABLE fold_bench AS SELECT (CASE WHEN ${accented} THEN (${list(ACCENTED)})[1 + i % 5] ELSE (${list(PLAIN)})[1 + i % 5] END) || ' ' || i AS v FROM generate_series(1, 100000) i`,
    );
    const ms: Record<'lower' | 'fold', number[]> = { lower: [], fold: [] };
    for (let r = 0; r < rounds; r++) {
      for (const [key, expr] of [
        ['lower', 'lower(v)'],
        ['fold', foldSql('v')],
      ] as const) {
        const start = performance.now();
        await query(`SELECT count(*) FROM fold_bench WHERE strpos(${expr}, 'zzz') > 0`);
        ms[key].push(performance.now() - start);
      }
    }
    const lower = median(ms.lower);
    const fold = median(ms.fold);
    console.log(
      `${engine.padEnd(10)} ${label.padEnd(17)} lower() ${lower.toFixed(0).padStart(4)} ms   foldSql ${fold.toFixed(0).padStart(4)} ms   ×${(fold / lower).toFixed(1)}`,
    );
  }
  await query('DROP TABLE fold_bench');
}

const dir = mkdtempSync(join(tmpdir(), 'search-fold-'));
try {
  const lite = await openPglite(join(dir, 'pgdata'));
  await measure('PGlite', (sql) => lite.query(sql));
  await lite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (process.env.DATABASE_URL) {
  const client = new pg.Client(process.env.DATABASE_URL);
  await client.connect();
  await measure('PostgreSQL', (sql) => client.query(sql));
  await client.end();
}
