import { formatDateTime, parseMoney, validationMessages } from '@portal/core';
import { BankingApi } from '@portal/plugin-banking/contract';
import { BillingApi, PREPULL_DESCRIPTION } from '@portal/plugin-billing/contract';
import { ApiCallError, showToast, useApi, useKernel } from '@portal/web';
import { Button, ConfirmDialog, Dialog, Form, LoadFailed, MoneyField, Panel, TextField, useKitForm } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Checkbox } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
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

/**
 * The prepull's fields: an amount (required, money as typed), a description ('Charge for future transactions' when
 * left empty) and the bill it is for, optional. Checked by the kit's form: a missing or bad value is said at its field
 * with the invalid-submit toast (spec 01 section 5).
 */
const prepullSchema = z.object({
  Amount: z
    .string()
    .trim()
    .min(1, validationMessages.required)
    .refine((v) => parseMoney(v) !== null, validationMessages.money),
  Description: z.string().max(255),
  ClaimID: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d{1,9}$/.test(v), validationMessages.number),
});

/** Prepull (spec 02 section 7): MemberId, Amount, Description ('Charge for future transactions' by default), ClaimID. */
function PrepullDialog({ memberId, onClose }: { memberId: number; onClose: () => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { t } = useTranslation('support');
  const form = useKitForm(prepullSchema, { defaultValues: { Amount: '', Description: PREPULL_DESCRIPTION, ClaimID: '' } });
  const [saving, setSaving] = useState(false);
  // One key per request: pressing again after a lost answer does not authorize twice, while a definite answer (a
  // decline, a refusal) or changed inputs make the next press a request of its own (see keepsIdempotencyKey).
  const key = useRef(newIdempotencyKey('prepull'));
  const renewKey = () => {
    key.current = newIdempotencyKey('prepull');
  };
  useEffect(() => {
    const changes = form.watch(renewKey);
    return () => changes.unsubscribe();
  }, [form]);
  const submit = async (v: z.output<typeof prepullSchema>) => {
    setSaving(true);
    try {
      const r = await api.call(BillingApi.prepull, {
        body: {
          MemberId: memberId,
          Amount: v.Amount,
          Description: v.Description.trim() || PREPULL_DESCRIPTION,
          ClaimID: v.ClaimID ? Number(v.ClaimID) : undefined,
          IdempotencyKey: key.current,
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
        <Form form={form} className={css.stack} onSubmit={submit}>
          <MoneyField name="Amount" label={t('member.amount')} isRequired />
          <TextField name="Description" label={t('member.description')} maxLength={255} />
          <TextField name="ClaimID" label={t('member.claimId')} inputMode="numeric" maxLength={9} />
          <div className={css.row}>
            <Button type="submit" variant="primary" isPending={saving} pendingLabel={t('actions.working')}>
              {t('member.submit')}
            </Button>
            <Button onPress={close}>{t('member.cancel')}</Button>
          </div>
        </Form>
      )}
    </Dialog>
  );
}
