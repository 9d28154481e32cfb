import { Roles } from '@portal/core';
import type { LedgerService } from '@portal/plugin-ledger/service';
import {
  ApiError,
  type AuditEntry,
  type BankAggregator,
  BankAggregatorError,
  BankAggregatorUnavailableError,
  type BankForm,
  type BankInstitution,
  type BankLinkResult,
  type KernelServices,
  type PluginInit,
  type SqlClient,
} from '@portal/server';
import { BANK_CONSTANTS } from '../access';
import type { BankFormWire, BankProvider, LinkedAccount, LinkedAccounts, LinkResult } from '../contract';
import type { BankingService } from '../service';
import { BANK_MESSAGES } from './messages';

/**
 * Writes one audit row of a bank-link change with the client it is given: the change's own transaction, so the change
 * and its audit row commit together or not at all. A route passes its ctx.audit (the user, the impersonated member); the
 * membership-termination hook passes the kernel's audit service as 'system'.
 */
export type BankAudit = (entry: Omit<AuditEntry, 'actorUserId' | 'actorName' | 'ip' | 'requestId'>, tx: SqlClient) => Promise<void>;

/** Our id of a member at the aggregator: one aggregator user per member. */
export const aggregatorUser = (memberId: number) => `member-${memberId}`;

export type Version = '1' | '1.1';
export const REFRESH_JOB = 'banking.refresh';
/** A bank transaction's reference in the ledger. */
export const bankRef = (transactionId: number) => `bank:${transactionId}`;
export const SYNC_JOB = 'banking.sync';
/** Removes at the aggregator a link made while the membership ended (see recordLinkResult), when that failed at once. */
export const UNLINK_JOB = 'banking.unlink';
/** How many times a sync asks the aggregator again when a link was removed while it asked (see sync). */
const SYNC_ATTEMPTS = 3;

const toForm = (f: BankForm): BankFormWire => ({
  FormId: f.formId,
  Label: f.label,
  FormType: f.formType,
  Fields: f.fields.map((x) => ({
    Id: x.id ?? null,
    Name: x.name,
    Label: x.label,
    Type: x.type,
    Value: '',
    Options: x.options ? x.options.map((o) => ({ Label: o.label, Value: o.value })) : null,
    MaxLength: x.maxLength ?? null,
  })),
});
/** Version '1' sends one form; '1.1' wraps a single form into a list. */
export const formFor = (f: BankForm | null, version: Version) => (f ? (version === '1.1' ? [toForm(f)] : toForm(f)) : null);

export const toProvider = (i: BankInstitution, version: Version, providerAccountId: number | null = null): BankProvider => ({
  ProviderId: i.institutionId,
  Name: i.name,
  Url: i.url,
  Favicon: i.favicon,
  Logo: i.logo,
  PublicKey: null,
  Form: formFor(i.form, version),
  ProviderAccountId: providerAccountId,
});

/** The popular institutions as site/popular lists them: the first eight the aggregator names (spec 01 section 9). */
export const popularProviders = (institutions: readonly BankInstitution[]): BankProvider[] =>
  institutions.slice(0, BANK_CONSTANTS.popularCount).map((i) => toProvider(i, '1'));

interface LinkRow {
  provider_account_id: number;
  member_id: number;
  provider_id: number;
  provider_name: string;
  logo: string | null;
  url: string | null;
  status: string;
  message: string | null;
  last_refreshed_at: Date | null;
}
interface AccountRow {
  account_id: number;
  member_id: number;
  provider_account_id: number;
  name: string;
  account_type: string;
  last4: string;
  balance_cents: string | number;
  refreshed_at: Date | null;
}
interface MemberRow {
  member_id: number;
  default_account_id: number | null;
  last_added_at: Date | null;
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/**
 * One member's rows as the finance service answers them: links in the order they were added (MFA links, unfinished,
 * left out of Banks), accounts by link then id, the default account only while it is one of the member's accounts.
 */
function toLinkedAccounts(links: readonly LinkRow[], accounts: readonly AccountRow[], m: MemberRow | undefined): LinkedAccounts {
  const byLink = new Map(links.map((l) => [l.provider_account_id, l]));
  const defaultId = m?.default_account_id && accounts.some((a) => a.account_id === m.default_account_id) ? m.default_account_id : null;
  const wire: LinkedAccount[] = accounts.map((a) => {
    const l = byLink.get(a.provider_account_id);
    return {
      AccountId: a.account_id,
      ProviderAccountId: a.provider_account_id,
      ProviderId: l?.provider_id ?? 0,
      BankName: l?.provider_name ?? '',
      AccountName: a.name,
      AccountType: a.account_type,
      AccountNumber: `...${a.last4}`,
      Balance: Number(a.balance_cents) / 100,
      RefreshDate: iso(a.refreshed_at),
      IsDefault: a.account_id === defaultId,
    };
  });
  const refreshed = wire.map((a) => a.RefreshDate).filter((d): d is string => d !== null);
  return {
    Banks: links
      .filter((l) => l.status !== 'MFA')
      .map((l) => ({
        ProviderId: l.provider_id,
        ProviderAccountId: l.provider_account_id,
        Name: l.provider_name,
        Logo: l.logo,
        Url: l.url,
        Status: l.status,
        Message: l.message,
        LastRefreshed: iso(l.last_refreshed_at),
        Containers: accounts.filter((a) => a.provider_account_id === l.provider_account_id).map((a) => ({ AccountId: a.account_id })),
      })),
    DefaultAccountId: defaultId,
    Accounts: wire,
    LastRefreshed: refreshed.length ? (refreshed.sort().at(-1) ?? null) : null,
    LastAdded: iso(m?.last_added_at),
  };
}

/** Our unavailability answer with the aggregator's failure as its cause: the kernel logs a 5xx ApiError's cause. */
function aggregatorUnavailable(cause: string): ApiError {
  const error = new ApiError(502, BANK_MESSAGES.unavailable);
  error.cause = `bank aggregator: ${cause}`;
  return error;
}

/**
 * Turns the aggregator's failures into answers: a refusal's message for people, unavailability as 502. A refusal of
 * our own credentials (401, 403: a wrong AGGREGATOR_CLIENT_ID or AGGREGATOR_SECRET) is not the member's to read: it
 * answers as unavailability too. The cause of every 502 goes with it to the log (the kernel's error handler writes it).
 */
export async function viaAggregator<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof BankAggregatorError) {
      if (e.status === 401 || e.status === 403) throw aggregatorUnavailable(`refused our credentials (${e.status}): ${e.message}`);
      throw new ApiError(e.status === 404 ? 404 : e.status === 409 ? 409 : 400, e.message);
    }
    if (e instanceof BankAggregatorUnavailableError) throw aggregatorUnavailable(e.message);
    throw e;
  }
}

/** `ledger`: the linked accounts' transactions feed the ledger's bank view (source 'bank'). */
export function makeBanking(services: KernelServices, database: PluginInit['database'], ledger: LedgerService) {
  const sql = database.sql;
  const banks: BankAggregator = services.banks;

  /**
   * The linked accounts of several members in three statements whatever their number (links, accounts, member rows,
   * each read for all of them with `= ANY($1::int[])`): a Map from each member id given to what linkedAccounts answers
   * for it, in the order of the ids given (duplicates once). A member with nothing here (none linked, or no such member)
   * gets empty lists and nulls.
   */
  async function linkedAccountsOfMembers(memberIds: readonly number[], q: SqlClient = sql): Promise<Map<number, LinkedAccounts>> {
    const ids = [...new Set(memberIds)];
    if (!ids.length) return new Map();
    const links = await q.query<LinkRow>('SELECT * FROM banking_links WHERE member_id = ANY($1::int[]) ORDER BY created_at, provider_account_id', [ids]);
    const accounts = await q.query<AccountRow>('SELECT * FROM banking_accounts WHERE member_id = ANY($1::int[]) ORDER BY provider_account_id, account_id', [
      ids,
    ]);
    const members = await q.query<MemberRow>('SELECT * FROM banking_members WHERE member_id = ANY($1::int[])', [ids]);
    // Grouped by member, each group keeps the statement's order: the order one member's own read would give.
    const group = <R extends { member_id: number }>(rows: R[]) => {
      const by = new Map<number, R[]>();
      for (const r of rows) {
        const list = by.get(r.member_id);
        if (list) list.push(r);
        else by.set(r.member_id, [r]);
      }
      return by;
    };
    const linksOf = group(links);
    const accountsOf = group(accounts);
    const memberRows = new Map(members.map((m) => [m.member_id, m]));
    return new Map(ids.map((id) => [id, toLinkedAccounts(linksOf.get(id) ?? [], accountsOf.get(id) ?? [], memberRows.get(id))]));
  }

  /** One member's banks, accounts (balances, refresh dates) and default account: linkedAccountsOfMembers of one. */
  async function linkedAccounts(memberId: number, q: SqlClient = sql): Promise<LinkedAccounts> {
    return (await linkedAccountsOfMembers([memberId], q)).get(memberId) ?? toLinkedAccounts([], [], undefined);
  }

  async function ensureMember(q: SqlClient, memberId: number) {
    await q.query('INSERT INTO banking_members (member_id) VALUES ($1) ON CONFLICT (member_id) DO NOTHING', [memberId]);
  }

  /**
   * Adds or removes the DeactivateBank marker on the member's logins; answers the logins it changed on: those that
   * lacked it (adding) or held it (removing), one audit row each for the caller.
   */
  async function setMarker(memberId: number, on: boolean, q: SqlClient = sql): Promise<string[]> {
    const changed: string[] = [];
    for (const userId of await services.identity.userIdsOfMember(memberId, q)) {
      const before = await services.identity.setRoles(userId, on ? [Roles.DeactivateBank] : [], [Roles.DeactivateBank], q);
      if (before.includes(Roles.DeactivateBank) !== on) changed.push(userId);
    }
    return changed;
  }

  /** The sync job's audit rows: no user behind them, so 'system', as the membership-termination hook writes them. */
  const systemAudit: BankAudit = (entry, tx) => services.audit.write({ ...entry, actorName: 'system' }, tx);

  /**
   * Mirrors the aggregator's links, accounts, balances and recent transactions for the member into our tables,
   * and keeps a default (funding) account while any account exists. A link it no longer lists goes as a removal does,
   * its unreported ledger rows withdrawn in the same transaction ('banking.link.gone', by 'system'). A link it lists
   * FAILED keeps its stored rows as they are, neither deleted nor refreshed, until it recovers or goes. The new
   * transactions are posted to the ledger in the same transaction, so our tables and the ledger commit together: a
   * remove or terminate that runs after the sync finds the rows the sync posted (refsOf) and withdraws them.
   *
   * One member's sync, remove and terminate are serialised: each one's transaction starts with the member's advisory
   * lock (lockMember). The aggregator is asked before, outside the transaction, so what it answered may be stale by the
   * time the lock is held: a remove (or terminate, or another sync's gone link) may have deleted a link it still lists.
   * Such a link is not written back. The rule: every removal of a link of the member bumps the member's removal count
   * (banking_members.links_removed) in the removal's transaction; the sync reads the count before asking the
   * aggregator and again under the lock. Equal, no removal committed in between, so every link the answer names is
   * either still ours or new at the aggregator (a bank linked in the hosted frame, an add not yet recorded), and all of
   * them are written. Moved, the answer may name a removed link (a removal unlinks at the aggregator before its
   * transaction): the sync writes nothing and asks the aggregator again (up to SYNC_ATTEMPTS times, then it fails and the
   * job retries). A removal whose transaction waits for our lock has not bumped the count: it runs after our commit and
   * removes what we wrote, ledger rows included. (A rule on link ids alone, "ours before and gone now", would bring back
   * a link added and removed while the sync waited on the aggregator: it was not ours before.)
   *
   * A member whose membership has ended gets nothing written: the transaction starts by reading the member's
   * termination under a share lock, so a termination waits for a sync under way to commit (its member.terminated job
   * then removes what that sync wrote, ledger rows included), and a sync that asked the aggregator before a termination
   * writes nothing after.
   */
  async function sync(memberId: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await syncOnce(memberId);
      if (outcome === 'stale' && attempt < SYNC_ATTEMPTS) continue;
      if (outcome === 'stale') throw new Error(`bank sync of member ${memberId}: links removed while it read the aggregator, ${SYNC_ATTEMPTS} times running`);
      // The new rows moved the balance the low-balance rule reads: the ledger's rule, once, after our commit.
      if (outcome > 0) await ledger.afterBankPosting(memberId);
      return;
    }
  }

  /** One attempt of sync: 'stale' when a link was removed since the aggregator was asked, else the ledger rows it added. */
  async function syncOnce(memberId: number): Promise<number | 'stale'> {
    const user = aggregatorUser(memberId);
    const removedBefore = await removals(sql, memberId);
    const links = await banks.links(user);
    const tx = await banks.transactions(user, { limit: 500 });
    // A link listed FAILED: the aggregator has no fresh data for it, so its stored link, accounts (balances, refresh
    // dates, the funding account among them) and transactions stay exactly as the last good sync left them, and
    // nothing of it reaches the ledger. Kept, they are what a later remove, terminate or gone link withdraws from
    // the ledger (refsOf); when it recovers, the upserts below (keyed on the aggregator's ids) update them in place.
    const failed = links.filter((l) => l.status === 'FAILED').map((l) => l.linkId);
    const live = links.filter((l) => l.status !== 'FAILED');
    return sql.transaction(async (q): Promise<number | 'stale'> => {
      await lockMember(q, memberId);
      if (await services.members.isTerminated(memberId, q, { share: true })) return 0;
      // A link removed since the aggregator was asked: the answer is stale, asked again (see sync).
      if ((await removals(q, memberId)) !== removedBefore) return 'stale';
      await ensureMember(q, memberId);
      // A link the aggregator no longer lists is gone for good, as if removed: the link (its accounts and transactions
      // cascade), one audit row each ('banking.link.gone', by 'system') and the withdrawal of its unreported rows from
      // the ledger are this transaction, so the ledger keeps no deposit of a bank that is gone, and a failure leaves all
      // as it was for the job's retry. A link listed FAILED is a passing failure: it stays.
      const keep = links.map((l) => l.linkId);
      const goneIds = (
        await q.query<{ provider_account_id: number }>(
          'SELECT provider_account_id FROM banking_links WHERE member_id = $1 AND NOT (provider_account_id = ANY($2::int[])) ORDER BY provider_account_id',
          [memberId, keep],
        )
      ).map((l) => l.provider_account_id);
      if (goneIds.length) {
        const refs = await refsOf(q, memberId, goneIds);
        const gone = await q.query<{ provider_account_id: number; provider_id: number; status: string }>(
          'DELETE FROM banking_links WHERE member_id = $1 AND provider_account_id = ANY($2::int[]) RETURNING provider_account_id, provider_id, status',
          [memberId, goneIds],
        );
        for (const l of gone.sort((a, b) => a.provider_account_id - b.provider_account_id)) {
          await systemAudit(
            {
              action: 'banking.link.gone',
              entity: 'bank_link',
              entityId: String(l.provider_account_id),
              memberId,
              detail: { providerId: l.provider_id, status: l.status },
            },
            q,
          );
        }
        await ledger.withdrawBankTransactions(memberId, refs, q);
        if (gone.length) await countRemoval(q, memberId);
      }
      for (const l of live) {
        await q.query(
          `INSERT INTO banking_links (provider_account_id, member_id, provider_id, provider_name, logo, url, status, message, last_refreshed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT (provider_account_id) DO UPDATE SET status = EXCLUDED.status, message = EXCLUDED.message,
             last_refreshed_at = COALESCE(EXCLUDED.last_refreshed_at, banking_links.last_refreshed_at), updated_at = now()
           WHERE banking_links.member_id = EXCLUDED.member_id`,
          [
            l.linkId,
            memberId,
            l.institution?.institutionId ?? 0,
            l.institution?.name ?? 'Bank',
            l.institution?.logo ?? null,
            l.institution?.url ?? null,
            l.status,
            l.message,
            l.accounts
              .map((a) => a.refreshedAt)
              .sort()
              .at(-1) ?? null,
          ],
        );
      }
      const accounts = live.flatMap((l) => l.accounts);
      // An account a listed link no longer has (closed at the bank) goes with its transactions, and their unreported
      // rows leave the ledger in this transaction, as a gone link's do.
      const closed = await q.query<{ transaction_id: number }>(
        `DELETE FROM banking_transactions t USING banking_accounts a
         WHERE a.account_id = t.account_id AND a.member_id = $1 AND NOT (a.account_id = ANY($2::int[])) AND NOT (a.provider_account_id = ANY($3::int[]))
         RETURNING t.transaction_id`,
        [memberId, accounts.map((a) => a.accountId), failed],
      );
      await q.query('DELETE FROM banking_accounts WHERE member_id = $1 AND NOT (account_id = ANY($2::int[])) AND NOT (provider_account_id = ANY($3::int[]))', [
        memberId,
        accounts.map((a) => a.accountId),
        failed,
      ]);
      if (closed.length)
        await ledger.withdrawBankTransactions(
          memberId,
          closed.map((r) => bankRef(r.transaction_id)),
          q,
        );
      for (const a of accounts) {
        await q.query(
          `INSERT INTO banking_accounts (account_id, member_id, provider_account_id, name, account_type, last4, balance_cents, refreshed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (account_id) DO UPDATE SET name = EXCLUDED.name, balance_cents = EXCLUDED.balance_cents, refreshed_at = EXCLUDED.refreshed_at`,
          [a.accountId, memberId, a.linkId, a.name, a.accountType, a.numberLast4, a.balanceCents, a.refreshedAt],
        );
      }
      const known = new Set(accounts.map((a) => a.accountId));
      const posted = tx.items.filter((t) => known.has(t.accountId));
      // Up to 500 rows in one statement (not a round trip each inside this transaction); rows already kept stay as they are.
      if (posted.length)
        await q.query(
          `INSERT INTO banking_transactions (transaction_id, member_id, account_id, posted_date, description, amount_cents)
           SELECT t.id, $1, t.account, t.day, t.description, t.cents
           FROM unnest($2::int[], $3::int[], $4::date[], $5::text[], $6::bigint[]) AS t(id, account, day, description, cents)
           ON CONFLICT (transaction_id) DO NOTHING`,
          [
            memberId,
            posted.map((t) => t.transactionId),
            posted.map((t) => t.accountId),
            posted.map((t) => t.date),
            posted.map((t) => t.description),
            posted.map((t) => t.amountCents),
          ],
        );
      // A default (funding) account that went away is no longer the default; the member chooses the next one.
      await q.query(
        `UPDATE banking_members SET default_account_id = NULL, updated_at = now()
         WHERE member_id = $1 AND default_account_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM banking_accounts WHERE account_id = default_account_id AND member_id = $1)`,
        [memberId],
      );
      // A stale link marks the member's logins; each login newly marked is audited ('banking.marker.add', by 'system')
      // in this transaction. The sync never removes the marker (only a credential change does, audited there).
      const stale = links.filter((l) => l.status === 'STALE').map((l) => l.linkId);
      if (stale.length) {
        for (const userId of await setMarker(memberId, true, q)) {
          await systemAudit(
            { action: 'banking.marker.add', entity: 'user', entityId: userId, memberId, detail: { role: Roles.DeactivateBank, providerAccountIds: stale } },
            q,
          );
        }
      }
      // The transactions feed the ledger's bank view, once each, in this transaction: only those of the links mirrored
      // above (none of a FAILED link), so the ledger holds no row of it that our tables (and so a later withdrawal) do
      // not know. The low-balance rule runs after the commit (sync).
      const names = new Map(live.flatMap((l) => l.accounts.map((a) => [a.accountId, `${l.institution?.name ?? 'Bank'} ${a.name}`] as const)));
      const rows = tx.items
        .filter((t) => names.has(t.accountId))
        .map((t) => ({
          ref: bankRef(t.transactionId),
          date: t.date,
          company: names.get(t.accountId) ?? 'Bank',
          description: t.description,
          signedCents: t.amountCents,
        }));
      return ledger.postBankTransactions(memberId, rows, q);
    });
  }

  /**
   * A terminated membership links no bank: add, change and MFA are refused (409) before the aggregator is asked, so no
   * credentials reach it for a link nothing would sync (sync writes nothing for a terminated member) and no termination
   * job would remove. Whoever asks: the member, or staff acting for them. A termination that commits while an add or
   * MFA answer is at the aggregator is caught where the link would be saved (recordLinkResult).
   */
  async function refuseTerminated(memberId: number) {
    if (await services.members.isTerminated(memberId)) throw new ApiError(409, BANK_MESSAGES.membershipTerminated);
  }

  /**
   * The member's bank lock, taken first in the transactions of sync, remove and terminate: one member's run one at a
   * time (released at commit or rollback). Keyed as the other plugins key theirs: the plugin's name, then the member.
   */
  async function lockMember(q: SqlClient, memberId: number) {
    await q.query('SELECT pg_advisory_xact_lock(hashtext($1), $2)', ['banking.member', memberId]);
  }

  /** How many times a link of the member was removed here (remove, terminate, a gone link), as text: see sync. */
  async function removals(q: SqlClient, memberId: number): Promise<string> {
    const row = (await q.query<{ n: string }>('SELECT links_removed::text AS n FROM banking_members WHERE member_id = $1', [memberId]))[0];
    return row?.n ?? '0';
  }

  /** Counts a removal of the member's links, in the removal's transaction (see sync). */
  async function countRemoval(q: SqlClient, memberId: number) {
    await q.query(
      `INSERT INTO banking_members (member_id, links_removed) VALUES ($1, 1)
       ON CONFLICT (member_id) DO UPDATE SET links_removed = banking_members.links_removed + 1`,
      [memberId],
    );
  }

  /**
   * The ledger refs of these links' transactions (all the member's when providerAccountIds is null), read in the
   * transaction that deletes them: the refs name exactly the rows the delete takes.
   */
  async function refsOf(q: SqlClient, memberId: number, providerAccountIds: readonly number[] | null) {
    const rows = await q.query<{ transaction_id: number }>(
      `SELECT t.transaction_id FROM banking_transactions t JOIN banking_accounts a ON a.account_id = t.account_id
       WHERE t.member_id = $1 AND ($2::int[] IS NULL OR a.provider_account_id = ANY($2::int[]))`,
      [memberId, providerAccountIds === null ? null : [...providerAccountIds]],
    );
    return rows.map((r) => bankRef(r.transaction_id));
  }

  /** Sync now; when the aggregator is slow or down, a job tries again. */
  async function syncSoon(memberId: number) {
    try {
      await sync(memberId);
    } catch {
      await services.jobs.send(SYNC_JOB, { memberId }, { singletonKey: String(memberId) });
    }
  }

  async function ownLink(memberId: number, providerAccountId: number, q: SqlClient = sql): Promise<LinkRow> {
    const row = (await q.query<LinkRow>('SELECT * FROM banking_links WHERE provider_account_id = $1 AND member_id = $2', [providerAccountId, memberId]))[0];
    if (!row) throw new ApiError(404, BANK_MESSAGES.linkNotFound);
    return row;
  }

  const result = (r: BankLinkResult, providerId: number, version: Version): LinkResult => ({
    Status: r.status,
    Message: r.message,
    ProviderId: providerId,
    ProviderAccountId: r.linkId,
    Form: formFor(r.form, version),
    Token: null,
  });

  /**
   * After add or MFA: record the link's state with its audit row (one transaction); a SUCCESS marks the add (the page
   * waits for the accounts) and reads them. A result that changes nothing here (FAILED, no link) is audited alone.
   *
   * A termination that committed while the aggregator was making the link (refuseTerminated ran before it was asked):
   * the transaction takes the member's bank lock (as terminate does) and reads the membership under a share lock, so
   * either the termination waits for this commit (and its member.terminated job removes the link saved here) or it
   * committed before, its job may have run already, and nothing would remove a link saved now. Then the link is not
   * saved: the audit row says so (`membershipTerminated`), the link is removed at the aggregator after the commit
   * (its 404 taken as done; a failure leaves it to the `banking.unlink` job) and the answer is 409.
   */
  async function recordLinkResult(
    memberId: number,
    inst: BankInstitution,
    r: BankLinkResult,
    audited: (q: SqlClient, detail?: Record<string, unknown>) => Promise<void>,
  ) {
    const linkId = r.linkId;
    if (linkId === null || r.status === 'FAILED') {
      await audited(sql);
      return;
    }
    const saved = await sql.transaction(async (q) => {
      await lockMember(q, memberId);
      if (await services.members.isTerminated(memberId, q, { share: true })) {
        await audited(q, { membershipTerminated: true });
        return false;
      }
      await ensureMember(q, memberId);
      await q.query(
        `INSERT INTO banking_links (provider_account_id, member_id, provider_id, provider_name, logo, url, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (provider_account_id) DO UPDATE SET status = EXCLUDED.status, updated_at = now()`,
        [linkId, memberId, inst.institutionId, inst.name, inst.logo, inst.url, r.status === 'SUCCESS' ? 'SUCCESS' : 'MFA'],
      );
      if (r.status === 'SUCCESS') await q.query('UPDATE banking_members SET last_added_at = now() WHERE member_id = $1', [memberId]);
      await audited(q);
      return true;
    });
    if (!saved) {
      await unlinkAtAggregator(memberId, linkId);
      throw new ApiError(409, BANK_MESSAGES.membershipTerminated);
    }
    if (r.status === 'SUCCESS') await syncSoon(memberId);
  }

  /**
   * Removes at the aggregator a link made for a membership that ended meanwhile (recordLinkResult), which nothing here
   * knows of: now, else by the `banking.unlink` job, retried, so the aggregator keeps no link of a member told that no
   * bank could be linked. The aggregator's 404 (the link already gone, e.g. removed by the termination job) is done.
   */
  async function unlinkAtAggregator(memberId: number, linkId: number) {
    try {
      await removeAtAggregator(memberId, linkId);
    } catch {
      await services.jobs.send(UNLINK_JOB, { memberId, providerAccountId: linkId });
    }
  }

  /** The aggregator's removal of one link of the member; its 404 (no such link any more) is taken as done. */
  async function removeAtAggregator(memberId: number, linkId: number) {
    try {
      await banks.removeLink(aggregatorUser(memberId), linkId);
    } catch (e) {
      if (!(e instanceof BankAggregatorError && e.status === 404)) throw e;
    }
  }

  /**
   * An MFA answer the aggregator refused with 409 because the link no longer waits for one: a sync reads the link's
   * state from the aggregator, and that state is the step's answer (SUCCESS once the earlier answer linked it: the
   * accounts are read and the add marked, as a SUCCESS answer does), with its audit row. When the sync could not run
   * (its job tries again) and the link still waits here, the aggregator's refusal stands; a link it no longer has is 404.
   */
  async function settledMfa(memberId: number, before: LinkRow, audit: BankAudit, refusal: BankAggregatorError): Promise<LinkResult> {
    await syncSoon(memberId);
    const link = (
      await sql.query<LinkRow>('SELECT * FROM banking_links WHERE provider_account_id = $1 AND member_id = $2', [before.provider_account_id, memberId])
    )[0];
    if (!link) throw new ApiError(404, BANK_MESSAGES.linkNotFound);
    if (link.status === 'MFA') throw new ApiError(409, refusal.message);
    const audited = (q: SqlClient) =>
      audit(
        {
          action: 'banking.link.mfa',
          entity: 'bank_link',
          entityId: String(link.provider_account_id),
          memberId,
          detail: { status: link.status, settledBySync: true },
        },
        q,
      );
    if (link.status === 'SUCCESS') {
      await sql.transaction(async (q) => {
        await q.query('UPDATE banking_members SET last_added_at = now() WHERE member_id = $1', [memberId]);
        await audited(q);
      });
    } else {
      await audited(sql);
    }
    return {
      Status: link.status,
      Message: link.status === 'SUCCESS' ? BANK_MESSAGES.linked : (link.message ?? ''),
      ProviderId: link.provider_id,
      ProviderAccountId: link.provider_account_id,
      Form: null,
      Token: null,
    };
  }

  async function alreadyLinked(memberId: number, providerId: number) {
    const rows = await sql.query<{ provider_name: string }>(
      `SELECT provider_name FROM banking_links WHERE member_id = $1 AND provider_id = $2 AND status IN ('SUCCESS', 'STALE')`,
      [memberId, providerId],
    );
    return rows[0]?.provider_name ?? null;
  }

  const service: BankingService = {
    async isLinked(memberId) {
      const rows = await sql.query(`SELECT 1 FROM banking_links WHERE member_id = $1 AND status IN ('SUCCESS', 'STALE') LIMIT 1`, [memberId]);
      return rows.length > 0;
    },
    accounts: (memberId) => linkedAccounts(memberId),
    async fundingAccount(memberId) {
      return (await linkedAccounts(memberId)).Accounts.find((a) => a.IsDefault) ?? null;
    },
  };

  return {
    ...service,
    linkedAccounts,
    linkedAccountsOfMembers,
    sync,
    setMarker,

    /** Links an institution; the link's row and its audit row ('banking.link.add') are one transaction. */
    async add(
      memberId: number,
      providerId: number,
      form: { fields: { name: string; value: string }[] },
      version: Version,
      audit: BankAudit,
    ): Promise<LinkResult> {
      await refuseTerminated(memberId);
      const inst = await viaAggregator(() => banks.institution(providerId));
      const dup = await alreadyLinked(memberId, providerId);
      if (dup) throw new ApiError(409, BANK_MESSAGES.alreadyLinked(dup));
      let r: BankLinkResult;
      try {
        r = await banks.link(aggregatorUser(memberId), providerId, form);
      } catch (e) {
        if (e instanceof BankAggregatorError && e.status === 409) {
          // Linked at the aggregator but not known here (e.g. our records were reset): mirror it, then refuse.
          await syncSoon(memberId);
          throw new ApiError(409, BANK_MESSAGES.alreadyLinked(inst.name));
        }
        return viaAggregator(() => Promise.reject(e));
      }
      await recordLinkResult(memberId, inst, r, (q, refused) =>
        audit(
          {
            action: 'banking.link.add',
            entity: 'bank_link',
            entityId: String(r.linkId ?? ''),
            memberId,
            detail: { providerId, status: r.status, ...refused },
          },
          q,
        ),
      );
      return result(r, providerId, version);
    },

    /** Answers a multi-factor step; the link's new state and its audit row ('banking.link.mfa') are one transaction. */
    async mfa(
      memberId: number,
      providerAccountId: number,
      form: { fields: { name: string; value: string }[] },
      version: Version,
      audit: BankAudit,
    ): Promise<LinkResult> {
      if (!form.fields.some((f) => f.value.trim() !== '')) throw new ApiError(400, BANK_MESSAGES.mfaEmpty);
      await refuseTerminated(memberId);
      const link = await ownLink(memberId, providerAccountId);
      let r: BankLinkResult;
      try {
        r = await banks.answerMfa(aggregatorUser(memberId), providerAccountId, form);
      } catch (e) {
        // The aggregator waits for no answer (409): it took an earlier one whose reply we lost (a timeout), so the
        // member answering again is told where the link stands now rather than the aggregator's refusal.
        if (e instanceof BankAggregatorError && e.status === 409) return settledMfa(memberId, link, audit, e);
        return viaAggregator(() => Promise.reject(e));
      }
      const inst = await viaAggregator(() => banks.institution(link.provider_id));
      await recordLinkResult(memberId, inst, r, (q, refused) =>
        audit({ action: 'banking.link.mfa', entity: 'bank_link', entityId: String(providerAccountId), memberId, detail: { status: r.status, ...refused } }, q),
      );
      return result(r, link.provider_id, version);
    },

    /**
     * Re-enters the credentials of a link; on SUCCESS the DeactivateBank marker goes from the member's logins. The link's
     * status, the marker's removal and their audit rows ('banking.link.credentials', and 'banking.marker.remove' for each
     * login that held the marker) are one transaction; a refused change is audited alone.
     */
    async change(memberId: number, providerAccountId: number, form: { fields: { name: string; value: string }[] }, audit: BankAudit): Promise<LinkResult> {
      await refuseTerminated(memberId);
      const link = await ownLink(memberId, providerAccountId);
      const r = await viaAggregator(() => banks.updateCredentials(aggregatorUser(memberId), providerAccountId, form));
      const changed = (q: SqlClient) =>
        audit({ action: 'banking.link.credentials', entity: 'bank_link', entityId: String(providerAccountId), memberId, detail: { status: r.status } }, q);
      if (r.status === 'SUCCESS') {
        await sql.transaction(async (q) => {
          await q.query(`UPDATE banking_links SET status = 'SUCCESS', message = NULL, updated_at = now() WHERE provider_account_id = $1`, [providerAccountId]);
          await changed(q);
          for (const userId of await setMarker(memberId, false, q)) {
            await audit(
              { action: 'banking.marker.remove', entity: 'user', entityId: userId, memberId, detail: { role: Roles.DeactivateBank, providerAccountId } },
              q,
            );
          }
        });
        await syncSoon(memberId);
      } else {
        await changed(sql);
      }
      return { ...result(r, link.provider_id, '1'), Message: r.status === 'SUCCESS' ? BANK_MESSAGES.credentialsUpdated : r.message };
    },

    /**
     * Unlinks at the aggregator, then here: the link (its accounts and transactions go with it), the audit row
     * ('banking.link.remove') and the withdrawal of its unreported rows from the ledger are one transaction, so a
     * failure anywhere leaves the link, its transactions and the ledger as they were, and the removal can be asked
     * again (the aggregator's 404 for a link it no longer has is taken as done).
     */
    async remove(memberId: number, providerAccountId: number, audit: BankAudit) {
      await ownLink(memberId, providerAccountId);
      try {
        await banks.removeLink(aggregatorUser(memberId), providerAccountId);
      } catch (e) {
        if (!(e instanceof BankAggregatorError && e.status === 404)) return viaAggregator(() => Promise.reject(e));
      }
      await sql.transaction(async (q) => {
        // After a sync under way (its ledger rows are then ours to withdraw), before the next (it sees the count moved).
        await lockMember(q, memberId);
        const refs = await refsOf(q, memberId, [providerAccountId]);
        const removed = await q.query('DELETE FROM banking_links WHERE provider_account_id = $1 AND member_id = $2 RETURNING 1', [providerAccountId, memberId]);
        if (removed.length) await countRemoval(q, memberId);
        // A removed default account leaves no funding account until the member sets one; a removal ends the "recent add".
        await q.query(
          `UPDATE banking_members SET last_added_at = NULL, default_account_id = CASE WHEN EXISTS (SELECT 1 FROM banking_accounts WHERE account_id = default_account_id AND member_id = $1)
             THEN default_account_id END, updated_at = now() WHERE member_id = $1`,
          [memberId],
        );
        await audit({ action: 'banking.link.remove', entity: 'bank_link', entityId: String(providerAccountId), memberId }, q);
        // Unlinking withdraws the bank's rows from the ledger (those not yet reported to the federal payer), in this
        // transaction: committed with the link's removal, or rolled back with it.
        await ledger.withdrawBankTransactions(memberId, refs, q);
      });
      return linkedAccounts(memberId);
    },

    /**
     * Unlinks every bank at the aggregator, then here: the links, the audit row ('banking.terminate', `detail` as given)
     * and the withdrawal of their unreported rows from the ledger are one transaction, as in remove. Run again when there
     * is nothing left to remove (the member.terminated job retried for another plugin's failure, a second request), it
     * changes nothing and writes no audit row.
     */
    async terminate(memberId: number, audit: BankAudit, detail: Record<string, unknown> | null = null) {
      const links = await sql.query<{ provider_account_id: number }>('SELECT provider_account_id FROM banking_links WHERE member_id = $1', [memberId]);
      for (const l of links) {
        try {
          await banks.removeLink(aggregatorUser(memberId), l.provider_account_id);
        } catch (e) {
          if (!(e instanceof BankAggregatorError && e.status === 404)) return viaAggregator(() => Promise.reject(e));
        }
      }
      await sql.transaction(async (q) => {
        await lockMember(q, memberId);
        const refs = await refsOf(q, memberId, null);
        const removed = await q.query('DELETE FROM banking_links WHERE member_id = $1 RETURNING provider_account_id', [memberId]);
        if (removed.length) await countRemoval(q, memberId);
        const cleared = await q.query(
          `UPDATE banking_members SET default_account_id = NULL, last_added_at = NULL
           WHERE member_id = $1 AND (default_account_id IS NOT NULL OR last_added_at IS NOT NULL) RETURNING member_id`,
          [memberId],
        );
        const withdrawn = await ledger.withdrawBankTransactions(memberId, refs, q);
        if (removed.length || cleared.length || withdrawn)
          await audit({ action: 'banking.terminate', entity: 'member', entityId: String(memberId), memberId, detail }, q);
      });
      return linkedAccounts(memberId);
    },

    /** Chooses the funding account; the choice and its audit row ('banking.account.default') are one transaction. */
    async setDefault(memberId: number, accountId: number, audit: BankAudit) {
      await sql.transaction(async (q) => {
        const own = await q.query('SELECT 1 FROM banking_accounts WHERE account_id = $1 AND member_id = $2', [accountId, memberId]);
        if (!own.length) throw new ApiError(404, BANK_MESSAGES.accountNotFound);
        await ensureMember(q, memberId);
        await q.query('UPDATE banking_members SET default_account_id = $2, updated_at = now() WHERE member_id = $1', [memberId, accountId]);
        await audit({ action: 'banking.account.default', entity: 'bank_account', entityId: String(accountId), memberId }, q);
      });
      return linkedAccounts(memberId);
    },

    /**
     * Queues a refresh of the member's accounts (the aggregator is slow): the job reads the new balances and transactions.
     * The queue is no table of ours (no shared transaction): the audit row ('banking.account.refresh') is written first,
     * so no refresh is ever queued unaudited.
     */
    async queueRefresh(memberId: number, accountIds: number[], audit: BankAudit) {
      const own = await sql.query<{ account_id: number }>('SELECT account_id FROM banking_accounts WHERE member_id = $1 AND account_id = ANY($2::int[])', [
        memberId,
        accountIds,
      ]);
      if (own.length !== new Set(accountIds).size) throw new ApiError(404, BANK_MESSAGES.accountNotFound);
      await audit({ action: 'banking.account.refresh', entity: 'bank_account', entityId: accountIds.join(','), memberId }, sql);
      await services.jobs.send(REFRESH_JOB, { memberId, accountIds: own.map((a) => a.account_id) });
      return own.length;
    },

    /**
     * POST site/sync: the page saw the hosted frame link a bank (the frame tells the page, not us), so the member's
     * links are mirrored now (a job retries when the aggregator is slow or down). Audited first
     * ('banking.link.sync'), as a refresh is, so no sync is asked unaudited.
     */
    async syncLinks(memberId: number, audit: BankAudit) {
      await audit({ action: 'banking.link.sync', entity: 'member', entityId: String(memberId), memberId }, sql);
      await syncSoon(memberId);
      return linkedAccounts(memberId);
    },

    /**
     * After a hosted-page token: a sync of the member once the token has expired, so a link made in the frame with it
     * is mirrored even when the frame's message to the page is lost. One waiting per member (its own singleton key,
     * apart from the retry of a failed sync); a token asked again while one waits adds none.
     */
    async scheduleFrameSync(memberId: number) {
      await services.jobs.send(SYNC_JOB, { memberId }, { singletonKey: `${memberId}:frame`, startAfter: BANK_CONSTANTS.frameSyncAfterS });
    },

    /** The `banking.unlink` job: removes at the aggregator a link made while the membership ended (recordLinkResult). */
    runUnlink: (memberId: number, providerAccountId: number) => viaAggregator(() => removeAtAggregator(memberId, providerAccountId)),

    /** The refresh job: asks the aggregator, marks stale links (and the DeactivateBank marker), then mirrors the result. */
    async runRefresh(memberId: number, accountIds: number[]) {
      await banks.refresh(aggregatorUser(memberId), accountIds);
      await sync(memberId);
    },

    async transactions(
      memberId: number,
      f: { AccountId?: number | null; Keyword?: string | null; From?: string | null; To?: string | null; PageIndex: number; PageSize: number },
    ) {
      const where = ['t.member_id = $1'];
      const params: unknown[] = [memberId];
      const add = (clause: (n: number) => string, v: unknown) => {
        params.push(v);
        where.push(clause(params.length));
      };
      if (f.AccountId) add((n) => `t.account_id = $${n}`, f.AccountId);
      if (f.Keyword) add((n) => `strpos(lower(t.description), lower($${n})) > 0`, f.Keyword);
      if (f.From) add((n) => `t.posted_date >= $${n}::date`, f.From);
      if (f.To) add((n) => `t.posted_date <= $${n}::date`, f.To);
      const from = `FROM banking_transactions t JOIN banking_accounts a ON a.account_id = t.account_id WHERE ${where.join(' AND ')}`;
      const total = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params))[0]?.n ?? 0;
      const rows = await sql.query<{
        transaction_id: number;
        account_id: number;
        name: string;
        /** 'YYYY-MM-DD': a calendar day, read as text whatever the session's DateStyle (node-pg makes a DATE a Date at the server's local midnight, a day early east of UTC once toISOString'd). */
        posted_date: string;
        description: string;
        amount_cents: string;
      }>(
        `SELECT t.transaction_id, t.account_id, a.name, to_char(t.posted_date, 'YYYY-MM-DD') AS posted_date, t.description, t.amount_cents ${from}
         ORDER BY t.posted_date DESC, t.transaction_id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, f.PageSize, f.PageIndex * f.PageSize],
      );
      return {
        Items: rows.map((r) => ({
          TransactionId: r.transaction_id,
          AccountId: r.account_id,
          AccountName: r.name,
          Date: r.posted_date,
          Description: r.description,
          Amount: Number(r.amount_cents) / 100,
        })),
        ItemCount: total,
      };
    },
  };
}

export type Banking = ReturnType<typeof makeBanking>;
