import { formatCurrency, formatDateTime } from '@portal/core';
import { failureWords, firstFieldIn, layoutCss, useApi, useFocusAfterRedraw } from '@portal/web';
import { neighboursOf } from '@portal/web/focus';
import { Button, ConfirmDialog, LoadFailed, Message, TableScroll, visuallyHidden } from '@portal/web/kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BANK_CONSTANTS, BankingPaths } from '../../access';
import { BankingApi, type LinkedAccount, type LinkedAccounts, type LinkedBank } from '../../contract';
import * as css from '../components/bank.css';
import { CredentialsDialog } from '../components/CredentialsDialog';
import { clearRecentAdd, recentAdd } from '../components/recentAdd';

export const ACCOUNTS_KEY = ['banking', 'accounts'] as const;

/**
 * Where focus goes once the banks are drawn after an action that took away the control the user was on: an account's
 * row (its Set as default gone once it is the funding account), or the bank shown after a removed one (else before
 * it). A wish waits for the list it is about, then moves focus only while it is lost.
 */
type FocusWish = { to: 'account'; accountId: number } | { to: 'neighbour'; removed: number; shown: number[] };

/** Whether the list shown is not yet the one the wish is about (the new funding account not yet shown, the removed bank still there). */
function waitsFor(wish: FocusWish, d: LinkedAccounts | undefined): boolean {
  if (!d) return true;
  if (wish.to === 'account') return !d.Accounts.some((a) => a.AccountId === wish.accountId && a.IsDefault);
  return d.Banks.some((b) => b.ProviderAccountId === wish.removed);
}

/** The first button of `part` a keyboard user can press (not disabled: a stale bank's Refresh is). */
const firstButton = (part: Element | null | undefined) => firstFieldIn(part, 'button');

/**
 * /payment/bank: the member's linked banks and accounts (balance, last refreshed, the default funding account),
 * refresh, remove after a confirmation, and the credential change of a stale bank. After an add the list reloads
 * every 5 seconds until the banks appear; with no banks and no recent add the account shows as deactivated.
 */
export default function BanksPage() {
  const { t } = useTranslation('banking');
  const api = useApi();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<LinkedBank | null>(null);
  const [changing, setChanging] = useState<LinkedBank | null>(null);
  const page = useRef<HTMLDivElement>(null);
  const addLink = useRef<HTMLAnchorElement>(null);
  // The last bank removed: the deactivated account's message takes focus.
  const [focusDeactivated, setFocusDeactivated] = useState(false);
  const accounts = useQuery({
    queryKey: ACCOUNTS_KEY,
    queryFn: () => api.call(BankingApi.siteAccounts, {}, { notify: false }),
    refetchInterval: (q) => {
      const d = q.state.data as LinkedAccounts | undefined;
      return d && d.Banks.length === 0 && recentAdd(d.LastAdded) ? BANK_CONSTANTS.reloadMs : false;
    },
  });
  const set = (d: LinkedAccounts) => queryClient.setQueryData(ACCOUNTS_KEY, d);
  const want = useFocusAfterRedraw(accounts.data, waitsFor, (wish: FocusWish) => {
    const root = page.current;
    if (!root) return;
    if (wish.to === 'account') {
      // The account's other buttons (Refresh), else its bank's (a stale bank's Refresh is disabled).
      const row = root.querySelector(`[data-account="${wish.accountId}"]`);
      (firstButton(row) ?? firstButton(row?.closest('[data-bank]')))?.focus();
      return;
    }
    const next = neighboursOf(wish.shown.map(String), String(wish.removed))
      .map((id) => firstButton(root.querySelector(`[data-bank="${id}"]`)))
      .find(Boolean);
    if (next) next.focus();
    // No bank left: the message that the account is deactivated, or (while a bank just added is awaited) Add a bank.
    else if (root.querySelector('[data-testid="bank-deactivated"]')) setFocusDeactivated(true);
    else addLink.current?.focus();
  });
  const makeDefault = useMutation({
    mutationFn: (a: LinkedAccount) => api.call(BankingApi.defaultAccount, { params: { id: a.AccountId } }),
    // Its Set as default goes once it is the funding account: focus stays in its row. The server's words say it (a toast).
    onSuccess: (d, a) => {
      want({ to: 'account', accountId: a.AccountId });
      set(d);
    },
  });
  const refresh = useMutation({
    mutationFn: (ids: number[]) => api.call(BankingApi.refresh, { body: { AccountIds: ids } }),
    // The job runs in the background: read the new balances shortly.
    onSuccess: () => setTimeout(() => void queryClient.invalidateQueries({ queryKey: ACCOUNTS_KEY }), 1500),
  });
  const remove = useMutation({
    mutationFn: (b: LinkedBank) => api.call(BankingApi.remove, { body: { ProviderAccountId: b.ProviderAccountId } }),
    onSuccess: (d, b) => {
      clearRecentAdd();
      // The dialog gives focus back to the bank's Remove, gone with the bank.
      want({ to: 'neighbour', removed: b.ProviderAccountId, shown: (accounts.data?.Banks ?? []).map((x) => x.ProviderAccountId) });
      set(d);
      setRemoving(null);
    },
  });

  const d = accounts.data;
  const waiting = d !== undefined && d.Banks.length === 0 && recentAdd(d.LastAdded);
  return (
    <div ref={page} className={layoutCss.card}>
      <div className={css.stack}>
        <div className={css.row}>
          <Link ref={addLink} to={BankingPaths.add}>
            {t('banks.add')}
          </Link>
          {d?.LastRefreshed && <p className={css.muted}>{t('banks.lastRefreshed', { date: formatDateTime(d.LastRefreshed) })}</p>}
        </div>
        {(accounts.isPending || (accounts.isError && accounts.isFetching)) && <p aria-busy="true">{t('loading')}</p>}
        {accounts.isError && !accounts.isFetching && (
          <LoadFailed message={failureWords(accounts.error, t('messages.serverError'))} onRetry={() => void accounts.refetch()} />
        )}
        {waiting && (
          <p aria-busy="true" data-testid="bank-waiting">
            {t('banks.waiting')}
          </p>
        )}
        {d && d.Banks.length === 0 && !waiting && (
          <Message kind="warning" data-testid="bank-deactivated" autoFocus={focusDeactivated}>
            {t('banks.deactivated')}
          </Message>
        )}
        {d?.Banks.map((b) => {
          const accts = d.Accounts.filter((a) => a.ProviderAccountId === b.ProviderAccountId);
          return (
            <section
              key={b.ProviderAccountId}
              className={css.bank}
              aria-labelledby={`bank-${b.ProviderAccountId}`}
              data-testid="linked-bank"
              data-bank={b.ProviderAccountId}
            >
              <div className={css.row}>
                <h2 id={`bank-${b.ProviderAccountId}`} className={css.heading}>
                  {b.Name}
                </h2>
                {b.LastRefreshed && <span className={css.muted}>{t('banks.lastRefreshed', { date: formatDateTime(b.LastRefreshed) })}</span>}
              </div>
              {b.Status === 'STALE' && (
                <Message kind="warning">
                  {b.Message ?? t('banks.stale')}{' '}
                  <Button size="small" onPress={() => setChanging(b)}>
                    {t('banks.updateCredentials')}
                  </Button>
                </Message>
              )}
              <TableScroll label={t('banks.accountsOf', { name: b.Name })}>
                <table className={css.table}>
                  <caption className={visuallyHidden}>{t('banks.accountsOf', { name: b.Name })}</caption>
                  <thead>
                    <tr>
                      <th scope="col" className={css.cell}>
                        {t('banks.account')}
                      </th>
                      <th scope="col" className={css.amount}>
                        {t('banks.balance')}
                      </th>
                      <th scope="col" className={css.cell}>
                        {t('banks.refreshDate')}
                      </th>
                      <th scope="col" className={css.cell}>
                        {t('banks.actions')}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {accts.map((a) => (
                      <tr key={a.AccountId} data-testid="bank-account" data-account={a.AccountId}>
                        <td className={css.cell}>
                          {a.AccountName}
                          {a.IsDefault && <span className={css.badge}>{t('banks.default')}</span>}
                        </td>
                        <td className={css.amount}>{formatCurrency(a.Balance)}</td>
                        <td className={css.cell}>{a.RefreshDate ? formatDateTime(a.RefreshDate) : ''}</td>
                        <td className={css.cell}>
                          <div className={css.row}>
                            {!a.IsDefault && (
                              <Button size="small" onPress={() => makeDefault.mutate(a)} aria-label={t('banks.makeDefaultOf', { name: a.AccountName })}>
                                {t('banks.makeDefault')}
                              </Button>
                            )}
                            <Button
                              size="small"
                              onPress={() => refresh.mutate([a.AccountId])}
                              isDisabled={b.Status === 'STALE'}
                              aria-label={t('banks.refreshOf', { name: a.AccountName })}
                            >
                              {t('banks.refresh')}
                            </Button>
                          </div>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
              <div className={css.row}>
                <Button size="small" onPress={() => setChanging(b)}>
                  {t('banks.changeCredentials')}
                </Button>
                <Button size="small" variant="danger" onPress={() => setRemoving(b)} aria-label={t('banks.removeOf', { name: b.Name })}>
                  {t('banks.remove')}
                </Button>
              </div>
            </section>
          );
        })}
      </div>
      <ConfirmDialog
        isOpen={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={t('banks.removeTitle')}
        message={t('banks.removeMessage', { name: removing?.Name ?? '' })}
        confirmLabel={t('banks.remove')}
        destructive
        onConfirm={() => (removing ? remove.mutateAsync(removing).then(() => undefined) : undefined)}
      />
      {changing && <CredentialsDialog bank={changing} onClose={() => setChanging(null)} />}
    </div>
  );
}
