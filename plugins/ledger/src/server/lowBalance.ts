import { type Message, msg } from '@portal/core';
import { type BalanceSource, trendsService } from '@portal/plugin-trends/service';
import type { RouteContext } from '@portal/server';
import { loadBalance } from './repo';

/** The ledger's account type in the low-balance e-mail, in the member's language. */
export const LEDGER_ACCOUNT_TYPE: Message = msg('Medicare set-aside');

type Ctx = Pick<RouteContext, 'database' | 'services' | 'use' | 'brand' | 'req' | 'audit'>;

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

/**
 * After a change of the member's balance has committed (create, edit, delete, the initial balance): the trends
 * plugin's low-balance rule on the ledger's own balance, so the 'Low Account Balance' e-mail goes out once when the
 * balance drops under the threshold, signed by the brand of the request's site. The ledger's change stands whatever
 * happens here: a failing check is logged, never the request's error.
 */
export async function checkLowBalance(ctx: Ctx, memberId: number): Promise<void> {
  try {
    const result = await ctx.use(trendsService).checkBalance(memberId, ledgerBalanceSource(ctx), ctx.brand);
    if (result?.sent) await ctx.audit({ action: 'ledger.lowbalance.mail', entity: 'member', entityId: String(memberId), memberId });
  } catch (e) {
    ctx.req.log.error({ err: e, memberId }, 'ledger low-balance check failed');
  }
}
