import { randomToken, type SqlClient, sha256 } from '@portal/server';

export type LinkPurpose = 'activate' | 'reset' | 'email';

/** Lifetimes of the e-mailed links. */
export const LINK_TTL_SECONDS: Record<LinkPurpose, number> = { activate: 24 * 60 * 60, reset: 60 * 60, email: 24 * 60 * 60 };

/**
 * How long a link's row is kept once it was spent or expired (the sessions' window): long enough to answer "was a reset
 * asked for last week"; the audit log keeps every request, reset, activation and change for good.
 */
export const LINK_RETENTION_DAYS = 30;

export const LINK_PRUNE_JOB = 'account.prune-links';
/** Hourly: an unconfirmed e-mail change's new address is cleared within the hour after its link expires. */
export const LINK_PRUNE_CRON = '41 * * * *';

/** Creates a link token for a user; only its sha256 is stored. Returns the token (the link's urlId). */
export async function issueLink(sql: SqlClient, userId: string, purpose: LinkPurpose, newEmail: string | null = null): Promise<string> {
  const token = randomToken(32);
  await sql.query(
    `INSERT INTO account_links (token_hash, purpose, user_id, expires_at, new_email) VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5)`,
    [sha256(token), purpose, userId, LINK_TTL_SECONDS[purpose], newEmail],
  );
  return token;
}

/** Spends an e-mail change link: the user and the address it confirms, or null for a used, expired or forged one. */
export async function spendEmailLink(tx: SqlClient, urlId: string): Promise<{ userId: string; newEmail: string } | null> {
  const rows = await tx.query<{ user_id: string; new_email: string }>(
    `UPDATE account_links SET used_at = now()
     WHERE token_hash = $1 AND purpose = 'email' AND used_at IS NULL AND expires_at > now() RETURNING user_id, new_email`,
    [sha256(urlId)],
  );
  const row = rows[0];
  if (!row) return null;
  // Any other pending change ends with this one (a request already ends the ones before it, updateEmail; this also
  // clears this link's address, answered above, from its row). Reset links sent to the old address end too: that
  // mailbox is no longer the account's.
  await endEmailChanges(tx, row.user_id);
  await tx.query(`UPDATE account_links SET used_at = now() WHERE user_id = $1 AND purpose = 'reset' AND used_at IS NULL`, [row.user_id]);
  return { userId: row.user_id, newEmail: row.new_email };
}

/**
 * Ends every live activation and reset link of the user (an administrator changed the login's address: the links
 * mailed to the old one must not activate or reset it). Returns how many it ended.
 */
export async function endAccessLinks(tx: SqlClient, userId: string): Promise<number> {
  const rows = await tx.query<{ n: number }>(
    `WITH ended AS (
       UPDATE account_links SET used_at = now()
       WHERE user_id = $1 AND purpose IN ('activate', 'reset') AND used_at IS NULL RETURNING 1)
     SELECT count(*)::int AS n FROM ended`,
    [userId],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Ends the user's pending e-mail changes (their links no longer confirm) and clears the addresses of their spent ones:
 * an address no link can confirm any more has no purpose left (it may be a typo, or someone else's). A new password
 * does this: the notice of a change tells the owner to change the password, and someone who knew the old one must not
 * confirm an address of theirs afterwards and take the account with a reset.
 */
export async function endEmailChanges(tx: SqlClient, userId: string): Promise<void> {
  await tx.query(
    `UPDATE account_links SET used_at = coalesce(used_at, now()), new_email = NULL
     WHERE user_id = $1 AND purpose = 'email' AND (used_at IS NULL OR new_email IS NOT NULL)`,
    [userId],
  );
}

/**
 * The links' housekeeping (the hourly `account.prune-links` job): clears the new address of every e-mail change whose
 * link expired unconfirmed (a spent one's is cleared when it is spent, endEmailChanges), and deletes links spent or
 * expired more than `retentionDays` ago. Live links are never touched.
 */
export async function pruneLinks(sql: SqlClient, retentionDays = LINK_RETENTION_DAYS): Promise<{ cleared: number; deleted: number }> {
  const cleared = await sql.query<{ n: number }>(
    `WITH done AS (
       UPDATE account_links SET new_email = NULL WHERE new_email IS NOT NULL AND (used_at IS NOT NULL OR expires_at <= now()) RETURNING 1)
     SELECT count(*)::int AS n FROM done`,
  );
  const deleted = await sql.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM account_links WHERE least(coalesce(used_at, expires_at), expires_at) < now() - make_interval(days => $1) RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [retentionDays],
  );
  return { cleared: cleared[0]?.n ?? 0, deleted: deleted[0]?.n ?? 0 };
}

export interface LiveLink {
  user_id: string;
  user_name: string;
  first_name: string;
  email: string | null;
  is_active: boolean;
}

/** The user of an unused, unexpired link of this purpose; null for a used, expired or forged one, or a closed login's. */
export async function findLiveLink(sql: SqlClient, urlId: string, purpose: LinkPurpose): Promise<LiveLink | null> {
  const rows = await sql.query<LiveLink>(
    `SELECT u.id AS user_id, u.user_name, u.first_name, u.email, u.is_active
     FROM account_links l JOIN users u ON u.id = l.user_id
     LEFT JOIN account_registrations r ON r.user_id = u.id
     WHERE l.token_hash = $1 AND l.purpose = $2 AND l.used_at IS NULL AND l.expires_at > now() AND u.closed_at IS NULL
       AND ($2 <> 'activate' OR (r.user_id IS NOT NULL AND r.activated_at IS NULL))`,
    [sha256(urlId), purpose],
  );
  return rows[0] ?? null;
}

/**
 * Spends a link inside the caller's transaction: of two requests racing with one link only one wins.
 * The user's other open links of the same purpose are spent too. Returns the user id, or null.
 */
export async function spendLink(tx: SqlClient, urlId: string, purpose: LinkPurpose): Promise<string | null> {
  const rows = await tx.query<{ user_id: string }>(
    `UPDATE account_links SET used_at = now()
     WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
    [sha256(urlId), purpose],
  );
  const userId = rows[0]?.user_id ?? null;
  if (userId) await tx.query('UPDATE account_links SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL', [userId, purpose]);
  return userId;
}
