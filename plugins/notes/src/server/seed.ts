import type { SeedContext } from '@portal/server';

// The demo conversations are stored notes (what members and support wrote), not messages of the server.
const QUESTIONS = [
  'I received a bill from my pharmacy that I think was already paid. Can you check?', // english-only: demo data
  'How long does a reimbursement usually take once I upload my receipt?', // english-only: demo data
  'My card was declined at the clinic yesterday. What should I do?', // english-only: demo data
  'Can you update the mailing address on my account? I moved last month.', // english-only: demo data
  'I would like a copy of my annual accounting letter.', // english-only: demo data
];
const ANSWERS = [
  'Thank you for writing. We have checked the bill and will follow up with the provider this week.', // english-only: demo data
  'Reimbursements are usually paid within 5 to 7 business days after we receive the receipt.', // english-only: demo data
  'We have reviewed your card and it is active again. Please try once more and let us know.', // english-only: demo data
  'Your address has been updated. You will see it on your next statement.', // english-only: demo data
];
const pick = <T>(list: readonly T[], r: number): T => list[Math.floor(r * list.length)] as T;

/** A short conversation (a question and a support answer, sometimes a follow-up) for each demo member that has none. */
export async function seed({ sql, members, random, log }: SeedContext): Promise<void> {
  const demo = members.filter((m) => m.userName !== null);
  if (demo.length === 0) return;
  const have = new Set(
    (await sql.query<{ member_id: number }>('SELECT DISTINCT member_id FROM notes WHERE member_id = ANY($1::int[])', [demo.map((m) => m.memberId)])).map(
      (r) => r.member_id,
    ),
  );
  let added = 0;
  for (const m of demo) {
    if (have.has(m.memberId)) continue;
    const conversations = 1 + Math.floor(random() * 2);
    for (let c = 0; c < conversations; c++) {
      const daysAgo = 5 + Math.floor(random() * 400);
      const root = await sql.query<{ note_id: number }>(
        `INSERT INTO notes (member_id, note_text, note_type_id, author_name, author_kind, created_at, updated_at)
         VALUES ($1, $2, 1, coalesce((SELECT first_name || ' ' || last_name FROM members WHERE member_id = $1), $3), 'Member', now() - make_interval(days => $4::int), now() - make_interval(days => $4::int)) RETURNING note_id`,
        [m.memberId, pick(QUESTIONS, random()), m.userName ?? 'Member', daysAgo],
      );
      const rootId = root[0]?.note_id as number;
      // The older conversations have been read; the newest answer may still be unread.
      await sql.query(
        `INSERT INTO notes (member_id, note_text, note_type_id, reply_to_id, author_name, author_kind, read_at, created_at, updated_at)
         VALUES ($1, $2, 2, $3, 'Member Support', 'Staff', CASE WHEN $5::boolean THEN now() ELSE NULL END,
                 now() - make_interval(days => $4::int), now() - make_interval(days => $4::int))`,
        [m.memberId, pick(ANSWERS, random()), rootId, Math.max(1, daysAgo - 2), c > 0 || random() < 0.5],
      );
      added += 2;
    }
  }
  if (added) log(`notes: ${added} notes`);
}
