import { createHook } from 'node:async_hooks';
import { openDatabase } from '../db/database.ts';
import { createJobQueue } from './pg-boss-queue.ts';
const live = new Map<number, string>();
createHook({
  init(id, type) { if (type === 'Timeout') live.set(id, new Error().stack ?? ''); },
  destroy(id) { live.delete(id); },
}).enable();
const database = await openDatabase({ databaseUrl: null, dataDir: null });
const log = { info: console.log, warn: console.log, error: console.log };
const q = createJobQueue(database, { work: true, pollingIntervalSeconds: 0.5 });
await q.define('x', async () => {});
await q.schedule('x', '* * * * *');
await q.start({ logger: log });
await new Promise((r) => setTimeout(r, 700));
live.clear();
const before = new Set(live.keys());
await q.stop();
await new Promise((r) => setImmediate(r));
console.log('resources', process.getActiveResourcesInfo());
for (const [id, s] of live) console.log(id, s.split('\n').slice(2, 9).join('\n'));
