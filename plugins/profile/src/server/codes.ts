import { randomInt, timingSafeEqual } from 'node:crypto';
import { type SqlClient, sha256 } from '@portal/server';
import { CODE_DIGITS, CODE_MAX_ATTEMPTS, CODE_TTL_SECONDS, VALIDATED_GRACE_SECONDS } from '../contract';

/** A random code of CODE_DIGITS digits (leading zeros kept). */
export const newCode = () => String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');

/** Only this hash is stored: peppered with the server's secret and bound to the member and the number. */
export const hashCode = (secret: string, memberId: number, phone: string, code: string) => sha256(`profile-sms|${secret}|${memberId}|${phone}|${code}`);

/** Stores a new code for the member's number; earlier unspent codes of the member stop working. */
export async function storeCode(tx: SqlClient, memberId: number, phone: string, codeHash: string): Promise<void> {
  await tx.query('UPDATE profile_phone_codes SET spent_at = now() WHERE member_id = $1 AND spent_at IS NULL', [memberId]);
  await tx.query('INSERT INTO profile_phone_codes (member_id, phone, code_hash, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))', [
    memberId,
    phone,
    codeHash,
    CODE_TTL_SECONDS,
  ]);
}

export type CheckOutcome = 'confirmed' | 'wrong' | 'exhausted' | 'none';

/**
 * Checks a code against the member's live code for the number, under a row lock so concurrent guesses are
 * counted one by one. A right code is spent and marked verified; the CODE_MAX_ATTEMPTS-th wrong one spends it.
 */
export async function checkCode(tx: SqlClient, memberId: number, phone: string, givenHash: string): Promise<CheckOutcome> {
  const rows = await tx.query<{ id: number; code_hash: string; attempts: number }>(
    `SELECT id, code_hash, attempts FROM profile_phone_codes
     WHERE member_id = $1 AND phone = $2 AND spent_at IS NULL AND expires_at > now() ORDER BY id DESC LIMIT 1 FOR UPDATE`,
    [memberId, phone],
  );
  const row = rows[0];
  if (!row) return 'none';
  const a = Buffer.from(row.code_hash);
  const b = Buffer.from(givenHash);
  if (a.length === b.length && timingSafeEqual(a, b)) {
    await tx.query('UPDATE profile_phone_codes SET spent_at = now(), verified_at = now() WHERE id = $1', [row.id]);
    return 'confirmed';
  }
  const attempts = row.attempts + 1;
  await tx.query(`UPDATE profile_phone_codes SET attempts = $2::int, spent_at = CASE WHEN $2::int >= $3::int THEN now() ELSE NULL END WHERE id = $1`, [
    row.id,
    attempts,
    CODE_MAX_ATTEMPTS,
  ]);
  return attempts >= CODE_MAX_ATTEMPTS ? 'exhausted' : 'wrong';
}

/** Whether a code for this number was confirmed in the last VALIDATED_GRACE_SECONDS (phone-validate?validated=true). */
export async function validatedRecently(tx: SqlClient, memberId: number, phone: string): Promise<boolean> {
  const rows = await tx.query(
    `SELECT 1 FROM profile_phone_codes WHERE member_id = $1 AND phone = $2 AND verified_at > now() - make_interval(secs => $3) LIMIT 1`,
    [memberId, phone, VALIDATED_GRACE_SECONDS],
  );
  return rows.length > 0;
}

/**
 * How long a code's row (the number it was sent to, the hash) is kept once it was spent or expired: the sessions'
 * window. The audit log keeps every request and check (masked number) for good.
 */
export const CODE_RETENTION_DAYS = 30;

export const CODE_PRUNE_JOB = 'profile.prune-codes';
/** Once a day, at a quiet hour (UTC), with the kernel's housekeeping. */
export const CODE_PRUNE_CRON = '17 3 * * *';

/** Deletes codes spent or expired more than `retentionDays` ago (the daily `profile.prune-codes` job). Returns how many went. */
export async function pruneCodes(sql: SqlClient, retentionDays = CODE_RETENTION_DAYS): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM profile_phone_codes WHERE least(coalesce(spent_at, expires_at), expires_at) < now() - make_interval(days => $1) RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [retentionDays],
  );
  return rows[0]?.n ?? 0;
}
