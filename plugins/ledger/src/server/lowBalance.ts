import { type BrandManifest, dayIn, type Message, msg } from '@portal/core';
import { type BalanceSource, type TrendsService, trendsService } from '@portal/plugin-trends/service';
import { type AuditEntry, loggedError, type PluginInit, type RouteContext } from '@portal/server';
import { LEDGER_ROWS, loadBalance } from './repo';

/** The ledger's account type in the low-balance e-mail, in the member's language. */
export const LEDGER_ACCOUNT_TYPE: Message = msg('Medicare set-aside');

type Ctx = Pick<RouteContext, 'database' | 'services' | 'config' | 'use' | 'brand' | 'req' | 'audit'>;
type Audit = (entry: Omit<AuditEntry, 'actorUserId' | 'actorName' | 'ip' | 'requestId'>) => Promise<void>;

/**
 * The ledger as the trends plugin's BalanceSource: the member's current balance (the initial balance plus deposits
 * and interest minus expenses dated up to the business's today, as loadBalance answers it) in cents, and the account type in the member's language
 * (the e-mail is written in it). No reading while no initial balance is set: there is no balance to judge yet.
 */
export function ledgerBalanceSource(deps: Pick<Ctx, 'database' | 'services' | 'config'>): BalanceSource {
  return {
    async read(memberId) {
      const balance = await loadBalance(deps.database.sql, memberId, dayIn(deps.config.businessTimeZone));
      if (balance.CurrentBalance === null) return null;
      const language = await deps.services.identity.languageOfMember(memberId);
      return { balanceCents: Math.round(balance.CurrentBalance * 100), accountType: deps.services.messages.t(LEDGER_ACCOUNT_TYPE, language) };
    },
  };
}

/** Trends' rule on the ledger's balance; a sent mail is audited ('ledger.lowbalance.mail') with `audit`. Throws what fails. */
async function lowBalanceRule(
  deps: Pick<Ctx, 'database' | 'services' | 'config'> & { trends: TrendsService },
  memberId: number,
  brand: BrandManifest | null,
  audit: Audit,
): Promise<void> {
  const result = await deps.trends.checkBalance(memberId, ledgerBalanceSource(deps), brand);
  if (result?.sent) await audit({ action: 'ledger.lowbalance.mail', entity: 'member', entityId: String(memberId), memberId });
}

/**
 * After a change of the member's balance has committed (create, edit, delete, the initial balance): the trends
 * plugin's low-balance rule on the ledger's own balance, so the 'Low Account Balance' e-mail goes out once when the
 * balance drops under the threshold, signed by the brand of the request's site. The ledger's change stands whatever
 * happens here: a failing check is logged, never the request's error.
 */
export async function checkLowBalance(ctx: Ctx, memberId: number): Promise<void> {
  try {
    await lowBalanceRule({ database: ctx.database, services: ctx.services, config: ctx.config, trends: ctx.use(trendsService) }, memberId, ctx.brand, (entry) =>
      ctx.audit(entry),
    );
  } catch (e) {
    ctx.req.log.error({ err: e, memberId }, 'ledger low-balance check failed');
  }
}

/**
 * The same rule for a change of the balance made outside a request, through the ledger's service (bank rows a linked
 * account's sync posted): run once after that change has committed. No request, so no site: trends signs the mail with
 * the member's brand (the kernel's brands service), and a sent mail is audited as 'system'. It never
 * throws: a failing check is logged (plugins get no logger outside a request: the process's console, as the job queue's
 * own fallback does) and the change stands.
 */
export function systemLowBalanceCheck(init: Pick<PluginInit, 'database' | 'services' | 'config' | 'use'>): (memberId: number) => Promise<void> {
  return async (memberId) => {
    try {
      await lowBalanceRule(
        { database: init.database, services: init.services, config: init.config, trends: init.use(trendsService) },
        memberId,
        null,
        (entry) => init.services.audit.write({ ...entry, actorName: 'system' }),
      );
    } catch (e) {
      console.error('ledger low-balance check failed', { memberId, err: loggedError(e) });
    }
  };
}

/** The hourly run of the low-balance rule for rows whose day has come (see checkRowsNowDue). */
export const DUE_ROWS_JOB = 'ledger.lowbalance.due-rows';
/** Hourly: the business's day starts at a UTC hour that moves with the zone and daylight saving time. */
export const DUE_ROWS_CRON = '5 * * * *';

/**
 * A row dated after the business's today enters the balance on its own day (loadBalance), with no change then to run
 * the low-balance rule. Each hour, the rule runs for the members with an initial balance who have a row dated today
 * that was written before today began in the business's zone: the rows whose counting began without a change. The
 * rule mails once per crossing (trends keeps whether the member is under the threshold), so running it again is
 * harmless. Answers how many members were checked.
 */
export async function checkRowsNowDue(init: Pick<PluginInit, 'database' | 'config'>, check: (memberId: number) => Promise<void>): Promise<number> {
  const tz = init.config.businessTimeZone;
  const today = dayIn(tz);
  const members = await init.database.sql.query<{ member_id: number }>(
    `SELECT DISTINCT t.member_id FROM ledger_transactions t JOIN ledger_accounts a ON a.member_id = t.member_id
     WHERE a.initial_balance_cents IS NOT NULL AND t.date_created = $1::date AND t.${LEDGER_ROWS}
       AND t.created_at < ($1::date::timestamp AT TIME ZONE $2) ORDER BY t.member_id`,
    [today, tz],
  );
  for (const m of members) await check(m.member_id);
  return members.length;
}
