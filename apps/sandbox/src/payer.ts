import { createHash, randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * The federal payer's reporting endpoint (a Medicare set-aside's yearly spending report). Stores every submission
 * once per Idempotency-Key and answers an acknowledgement id; the same key with the same report answers the first
 * acknowledgement again (duplicate: true), the same key with a different report is refused with 409.
 */
const PAYER_MIGRATIONS: { id: string; sql: string }[] = [
  {
    id: 'payer_0001',
    sql: `
CREATE TABLE payer_submissions (
  id serial PRIMARY KEY,
  acknowledgement_id text NOT NULL UNIQUE,
  idempotency_key text NOT NULL UNIQUE,
  request_hash text NOT NULL,
  member_number text NOT NULL,
  hicn text NOT NULL,
  period_from date NOT NULL,
  period_to date NOT NULL,
  record_count int NOT NULL,
  body jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payer_submissions_hicn_idx ON payer_submissions (hicn, id DESC);
`,
  },
];

async function migratePayer(db: PGlite): Promise<void> {
  const done = new Set((await db.query<{ id: string }>('SELECT id FROM sandbox_migrations')).rows.map((r) => r.id));
  for (const m of PAYER_MIGRATIONS) {
    if (done.has(m.id)) continue;
    await db.transaction(async (tx) => {
      await tx.exec(m.sql);
      await tx.query('INSERT INTO sandbox_migrations (id) VALUES ($1)', [m.id]);
    });
  }
}

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');
export const payerSubmissionSchema = z.object({
  memberNumber: z.string().trim().min(1).max(40),
  hicn: z.string().trim().min(1, 'hicn is required').max(20),
  dateOfInjury: day,
  dateOfSettlement: day,
  periodFrom: day,
  periodTo: day,
  records: z
    .array(
      z.object({
        date: day,
        code: z.string().max(40).nullable(),
        company: z.string().max(200).nullable(),
        description: z.string().max(500).nullable(),
        type: z.number().int().min(1).max(3),
        amountCents: z.number().int().nonnegative(),
      }),
    )
    .max(100_000),
});
const keySchema = z.string().trim().min(8, 'Idempotency-Key is required').max(200);
const listQuery = z.object({ hicn: z.string().trim().min(1).max(20).optional(), limit: z.coerce.number().int().min(1).max(500).default(50) });

export interface SandboxPayerSubmission {
  acknowledgementId: string;
  idempotencyKey: string;
  memberNumber: string;
  hicn: string;
  periodFrom: string;
  periodTo: string;
  recordCount: number;
  totalCents: { expense: number; deposit: number; interest: number };
  receivedAt: string;
}

interface Row {
  acknowledgement_id: string;
  idempotency_key: string;
  request_hash: string;
  member_number: string;
  hicn: string;
  period_from: string;
  period_to: string;
  record_count: number;
  body: z.infer<typeof payerSubmissionSchema>;
  received_at: Date;
}
const SELECT = `SELECT acknowledgement_id, idempotency_key, request_hash, member_number, hicn, to_char(period_from, 'YYYY-MM-DD') AS period_from,
  to_char(period_to, 'YYYY-MM-DD') AS period_to, record_count, body, received_at FROM payer_submissions`;

function toWire(r: Row): SandboxPayerSubmission {
  const totals = { expense: 0, deposit: 0, interest: 0 };
  for (const rec of r.body.records) {
    if (rec.type === 1) totals.expense += rec.amountCents;
    else if (rec.type === 2) totals.deposit += rec.amountCents;
    else totals.interest += rec.amountCents;
  }
  return {
    acknowledgementId: r.acknowledgement_id,
    idempotencyKey: r.idempotency_key,
    memberNumber: r.member_number,
    hicn: r.hicn,
    periodFrom: r.period_from,
    periodTo: r.period_to,
    recordCount: r.record_count,
    totalCents: totals,
    receivedAt: new Date(r.received_at).toISOString(),
  };
}

export function registerPayer(app: FastifyInstance, db: PGlite): void {
  let ready: Promise<void> | null = null;
  const migrated = () => {
    ready ??= migratePayer(db);
    return ready;
  };
  app.addHook('onReady', async () => {
    await migrated();
  });

  app.post('/payer/api/submissions', async (req, reply) => {
    await migrated();
    const key = keySchema.safeParse(req.headers['idempotency-key']);
    if (!key.success) return reply.status(400).send({ error: 'Idempotency-Key header is required (8 to 200 characters).' });
    const parsed = payerSubmissionSchema.safeParse(req.body);
    if (!parsed.success)
      return reply.status(400).send({ error: `Invalid report: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` });
    const body = parsed.data;
    const hash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
    return db.transaction(async (tx) => {
      const existing = (await tx.query<Row>(`${SELECT} WHERE idempotency_key = $1 FOR UPDATE`, [key.data])).rows[0];
      if (existing) {
        if (existing.request_hash !== hash) return reply.status(409).send({ error: 'This Idempotency-Key was used for a different report.' });
        return reply
          .status(200)
          .send({ acknowledgementId: existing.acknowledgement_id, receivedAt: new Date(existing.received_at).toISOString(), duplicate: true });
      }
      const ack = `FP-${new Date().getUTCFullYear()}-${randomBytes(6).toString('hex').toUpperCase()}`;
      const row = (
        await tx.query<{ received_at: Date }>(
          `INSERT INTO payer_submissions (acknowledgement_id, idempotency_key, request_hash, member_number, hicn, period_from, period_to, record_count, body)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING received_at`,
          [ack, key.data, hash, body.memberNumber, body.hicn, body.periodFrom, body.periodTo, body.records.length, JSON.stringify(body)],
        )
      ).rows[0];
      return reply.status(201).send({ acknowledgementId: ack, receivedAt: new Date(row?.received_at ?? Date.now()).toISOString(), duplicate: false });
    });
  });

  app.get('/payer/api/submissions', async (req, reply) => {
    await migrated();
    const q = listQuery.safeParse(req.query);
    if (!q.success) return reply.status(400).send({ error: 'Invalid query.' });
    const rows = q.data.hicn
      ? (await db.query<Row>(`${SELECT} WHERE hicn = $1 ORDER BY id DESC LIMIT $2`, [q.data.hicn, q.data.limit])).rows
      : (await db.query<Row>(`${SELECT} ORDER BY id DESC LIMIT $1`, [q.data.limit])).rows;
    return rows.map(toWire);
  });
}
