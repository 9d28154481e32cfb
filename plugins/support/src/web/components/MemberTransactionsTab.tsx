import { formatDateTime } from '@portal/core';
import { BankingApi } from '@portal/plugin-banking/contract';
import { BillingApi, PREPULL_DESCRIPTION } from '@portal/plugin-billing/contract';
import { ApiCallError, showToast, useApi, useKernel } from '@portal/web';
import { Button, ConfirmDialog, Dialog, LoadFailed, Panel } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Checkbox } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { SupportApi } from '../../contract';
import { keepsIdempotencyKey, newIdempotencyKey } from '../../rules';
import { MemberClaim } from './MemberClaim';
import { refreshTransactions } from './refreshTransactions';
import * as css from './support.css';
import { TransactionsGrid } from './TransactionsGrid';

/**
 * The member's details-transactions tab (support plugin): the member actions support takes from /users/:id
 * (impersonate, terminate or reactivate, prepull) above the member's transactions.
 */
export default function MemberTransactionsTab({ memberId }: { memberId: number }) {
  return (
    <div className={css.stack}>
      <MemberActions memberId={memberId} />
      <TransactionsGrid mode="member" memberId={memberId} />
      <MemberClaim memberId={memberId} />
    </div>
  );
}

function MemberActions({ memberId }: { memberId: number }) {
  const api = useApi();
  const kernel = useKernel();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation('support');
  const [terminating, setTerminating] = useState(false);
  // Support's separate choice (fraud, abuse): also close the member's logins. Off unless ticked.
  const [closeLogins, setCloseLogins] = useState(false);
  const closeHelpId = useId();
  const [reactivating, setReactivating] = useState(false);
  const [prepull, setPrepull] = useState(false);
  const termination = useQuery({
    queryKey: ['support', 'termination', memberId],
    queryFn: () => api.call(SupportApi.terminationDate, { params: { memberId } }, { skipLoadingBar: true }),
  });
  const terminated = termination.data?.IsTerminated ?? false;
  // The banking plugin's check (GET api/support/members/IslinkedBank/{memberId}); absent where banking is not enabled.
  const linked = useQuery({
    queryKey: ['support', 'linkedBank', memberId],
    queryFn: () => api.call(BankingApi.isLinkedBank, { params: { memberId } }, { skipLoadingBar: true, notify: false }),
    retry: false,
  });

  return (
    <Panel title={t('member.actions')}>
      <div className={css.row}>
        <Button
          onPress={() => {
            kernel.setImpersonation(memberId);
            navigate('/dashboard');
          }}
        >
          {t('member.impersonate')}
        </Button>
        <Button onPress={() => setPrepull(true)}>{t('member.prepull')}</Button>
        <SyncButton memberId={memberId} />
        {termination.data && !terminated && (
          <Button variant="danger" onPress={() => setTerminating(true)}>
            {t('member.terminate')}
          </Button>
        )}
        {terminated && <Button onPress={() => setReactivating(true)}>{t('member.reactivate')}</Button>}
        {linked.data !== undefined && (
          <span data-testid="linked-bank">
            {t('member.linkedBank')}: {linked.data ? t('member.linkedYes') : t('member.linkedNo')}
          </span>
        )}
        <span data-testid="termination-state">
          {terminated && termination.data?.TerminationDate
            ? t('member.terminated', { date: formatDateTime(termination.data.TerminationDate) })
            : termination.data
              ? t('member.active')
              : ''}
        </span>
        {termination.isError && termination.isFetching && <span aria-busy="true">{t('loading')}</span>}
        {termination.isError && !termination.isFetching && <LoadFailed message={t('member.terminationError')} onRetry={() => void termination.refetch()} />}
      </div>
      <ConfirmDialog
        isOpen={terminating}
        onOpenChange={(open) => {
          setTerminating(open);
          // Each termination starts with the logins kept: closing them is chosen anew every time.
          if (!open) setCloseLogins(false);
        }}
        title={t('member.terminateTitle')}
        message={
          <>
            <p>{t('member.terminateMessage')}</p>
            <Checkbox className={css.checkbox} isSelected={closeLogins} onChange={setCloseLogins} aria-describedby={closeHelpId}>
              {({ isSelected }) => (
                <>
                  <span className={css.checkboxBox} aria-hidden="true">
                    {isSelected ? '✓' : ''}
                  </span>
                  {t('member.closeLogins')}
                </>
              )}
            </Checkbox>
            <p id={closeHelpId} className={css.hint}>
              {t('member.closeLoginsHelp')}
            </p>
          </>
        }
        confirmLabel={t('member.terminate')}
        destructive
        onConfirm={async () => {
          await api.call(SupportApi.terminateMember, { body: { Member: { MemberID: memberId }, CloseLogins: closeLogins } });
          setCloseLogins(false);
          // Closes the dialog and reloads the member.
          setTerminating(false);
          await queryClient.invalidateQueries();
        }}
      />
      <ConfirmDialog
        isOpen={reactivating}
        onOpenChange={setReactivating}
        title={t('member.reactivateTitle')}
        message={t('member.reactivateMessage')}
        confirmLabel={t('member.reactivate')}
        onConfirm={async () => {
          await api.call(SupportApi.reactivateMember, { body: { Member: { MemberID: memberId } } });
          setReactivating(false);
          await queryClient.invalidateQueries();
        }}
      />
      {prepull && <PrepullDialog memberId={memberId} onClose={() => setPrepull(false)} />}
    </Panel>
  );
}

/**
 * Asks the gateway for the member's transactions (POST transaction/sync): charges we never heard of, and held ones the
 * merchant decided in the gateway's own screens, are recorded; the list then shows them.
 */
function SyncButton({ memberId }: { memberId: number }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { t } = useTranslation('support');
  const [busy, setBusy] = useState(false);
  const sync = async () => {
    setBusy(true);
    try {
      const { Count } = await api.call(BillingApi.transactionSync, { body: { MemberId: memberId } });
      showToast({ kind: 'success', message: Count === 0 ? t('member.syncedNone') : t('member.synced', { count: Count }) });
      await refreshTransactions(queryClient);
    } catch {
      // the client showed the server's message
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button onPress={() => void sync()} isPending={busy} pendingLabel={t('actions.working')}>
      {t('member.sync')}
    </Button>
  );
}

/** Prepull (spec 02 section 7): MemberId, Amount, Description ('Charge for future transactions' by default), ClaimID. */
function PrepullDialog({ memberId, onClose }: { memberId: number; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { t } = useTranslation('support');
  const ids = { amount: useId(), description: useId(), claim: useId() };
  const [amount, setAmountValue] = useState('');
  const [description, setDescriptionValue] = useState(PREPULL_DESCRIPTION);
  const [claimId, setClaimIdValue] = useState('');
  const [saving, setSaving] = useState(false);
  // One key per request: pressing again after a lost answer does not authorize twice, while a definite answer (a
  // decline, a refusal) or changed inputs make the next press a request of its own (see keepsIdempotencyKey).
  const [key, setKey] = useState(() => newIdempotencyKey('prepull'));
  const renewKey = () => setKey(newIdempotencyKey('prepull'));
  const setAmount = (v: string) => {
    setAmountValue(v);
    renewKey();
  };
  const setDescription = (v: string) => {
    setDescriptionValue(v);
    renewKey();
  };
  const setClaimId = (v: string) => {
    setClaimIdValue(v);
    renewKey();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      const r = await api.call(BillingApi.prepull, {
        body: {
          MemberId: memberId,
          Amount: amount,
          Description: description.trim() || PREPULL_DESCRIPTION,
          ClaimID: claimId.trim() ? claimId.trim() : undefined,
          IdempotencyKey: key,
        },
      });
      // A definite answer (authorized or declined): the next press is a new request.
      renewKey();
      showToast({ kind: r.StatusString === 'Ok' ? 'success' : 'error', message: r.Message });
      if (r.StatusString === 'Ok') onClose();
      await refreshTransactions(queryClient);
    } catch (err) {
      // the client showed the server's message
      if (!keepsIdempotencyKey({ answered: false, status: err instanceof ApiCallError ? err.status : 0 })) renewKey();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog isOpen onOpenChange={(open) => !open && onClose()} title={t('member.prepullTitle')} size="small" isDismissable={false}>
      {(close) => (
        <form className={css.stack} onSubmit={(e) => void submit(e)}>
          <div className={css.field}>
            <label htmlFor={ids.amount}>{t('member.amount')}</label>
            <input id={ids.amount} className={css.input} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} required />
          </div>
          <div className={css.field}>
            <label htmlFor={ids.description}>{t('member.description')}</label>
            <input id={ids.description} className={css.input} value={description} maxLength={255} onChange={(e) => setDescription(e.target.value)} />
          </div>
          <div className={css.field}>
            <label htmlFor={ids.claim}>{t('member.claimId')}</label>
            <input id={ids.claim} className={css.input} inputMode="numeric" value={claimId} onChange={(e) => setClaimId(e.target.value)} />
          </div>
          <div className={css.row}>
            <Button type="submit" variant="primary" isPending={saving} pendingLabel={t('actions.working')}>
              {t('member.submit')}
            </Button>
            <Button onPress={close}>{t('member.cancel')}</Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
