import { type BrandManifest, type Message, msg } from '@portal/core';
import { type BalanceSource, type TrendsService, trendsService } from '@portal/plugin-trends/service';
import { type AuditEntry, loggedError, type PluginInit, type RouteContext } from '@portal/server';
import { loadBalance } from './repo';

/** The ledger's account type in the low-balance e-mail, in the member's language. */
export const LEDGER_ACCOUNT_TYPE: Message = msg('Medicare set-aside');

type Ctx = Pick<RouteContext, 'database' | 'services' | 'use' | 'brand' | 'req' | 'audit'>;
type Audit = (entry: Omit<AuditEntry, 'actorUserId' | 'actorName' | 'ip' | 'requestId'>) => Promise<void>;

/**
 * The ledger as the trends plugin's BalanceSource: the member's current balance (the initial balance plus deposits
 * and interest minus expenses, as loadBalance answers it) in cents, and the account type in the member's language
 * (the e-mail is written in it). No reading while no initial balance is set: there is no balance to judge yet.
 */
export function ledgerBalanceSource(deps: Pick<Ctx, 'database' | 'services'>): BalanceSource {
  return {
    async read(memberId) {
      const balance = await loadBalance(deps.database.sql, memberId);
      if (balance.CurrentBalance === null) return null;
      const language = await deps.services.identity.languageOfMember(memberId);
      return { balanceCents: Math.round(balance.CurrentBalance * 100), accountType: deps.services.messages.t(LEDGER_ACCOUNT_TYPE, language) };
    },
  };
}

/** Trends' rule on the ledger's balance; a sent mail is audited ('ledger.lowbalance.mail') with `audit`. Throws what fails. */
async function lowBalanceRule(
  deps: Pick<Ctx, 'database' | 'services'> & { trends: TrendsService },
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
    await lowBalanceRule({ database: ctx.database, services: ctx.services, trends: ctx.use(trendsService) }, memberId, ctx.brand, (entry) => ctx.audit(entry));
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
export function systemLowBalanceCheck(init: Pick<PluginInit, 'database' | 'services' | 'use'>): (memberId: number) => Promise<void> {
  return async (memberId) => {
    try {
      await lowBalanceRule({ database: init.database, services: init.services, trends: init.use(trendsService) }, memberId, null, (entry) =>
        init.services.audit.write({ ...entry, actorName: 'system' }),
      );
    } catch (e) {
      console.error('ledger low-balance check failed', { memberId, err: loggedError(e) });
    }
  };
}
