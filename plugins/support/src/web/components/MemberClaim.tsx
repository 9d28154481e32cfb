import { formatCurrency } from '@portal/core';
import { ClaimsApi, claimIdLookup } from '@portal/plugin-claims/contract';
import { loadFailure, saveConflict, useApi, useLookups } from '@portal/web';
import { Button, lookupNames, Message, NativeSelectField, Panel, useLookupLabel, useUnsavedChanges } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { claimStatusLabel, nextStatusLabel } from './claimStatus';
import * as css from './support.css';

/**
 * One of the member's bills by its id (GET api/support/getClaimById/{claimId}/{memberId}) and a status change through
 * the claims plugin's state machine (POST api/support/changeStatus): only the statuses the bill may move to are offered.
 */
export function MemberClaim({ memberId }: { memberId: number }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { t } = useTranslation('support');
  const ids = { claim: useId(), reason: useId() };
  const [text, setText] = useState('');
  const [claimId, setClaimId] = useState<number | null>(null);
  const [next, setNext] = useState('');
  const [reason, setReason] = useState('');
  // A next status or a reason chosen and not yet sent: leaving the page, or this member tab, asks first.
  useUnsavedChanges(useCallback(() => next !== '' || reason.trim() !== '', [next, reason]));
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  // The statuses' names in the page's language, from the lookup cache, as the claims pages show them.
  const statuses = useLookups('Claim Status');
  const label = useLookupLabel();
  const statusNames = useMemo(() => lookupNames(statuses, label), [statuses, label]);
  const claim = useQuery({
    queryKey: ['support', 'claim', memberId, claimId],
    queryFn: () => api.call(ClaimsApi.supportGetById, { params: { claimId: claimId as number, memberId } }, { notify: false }),
    enabled: claimId !== null,
    retry: false,
  });

  function find(e: FormEvent) {
    e.preventDefault();
    // The bills page's rule and words (spec 02 section 5: more than 1 character).
    const id = claimIdLookup(text);
    setOutcome(null);
    setNext('');
    setClaimId(id);
    if (id === null) setOutcome({ kind: 'error', text: t('claim.badId') });
  }

  async function change(e: FormEvent) {
    e.preventDefault();
    if (!claim.data || !next) return;
    setBusy(true);
    try {
      await api.call(
        ClaimsApi.supportChangeStatus,
        // With the Version shown: a bill someone changed since is refused (409), not moved from a status not seen here.
        {
          body: {
            Ids: [{ ID: claim.data.Claim.ClaimID, Version: claim.data.Claim.Version }],
            NewClaimStatusID: Number(next),
            Reason: reason || undefined,
            MemberID: memberId,
          },
        },
        { notify: false },
      );
      setOutcome({ kind: 'success', text: t('claim.changed', { status: nextStatusLabel(statusNames, Number(next)) }) });
      setNext('');
      setReason('');
      await queryClient.invalidateQueries({ queryKey: ['support', 'claim', memberId] });
    } catch (err) {
      setOutcome({ kind: 'error', text: (err as Error).message });
      // Changed by someone else: show the bill as it is now, so the next choice starts from its current status.
      if (saveConflict(err)) await queryClient.invalidateQueries({ queryKey: ['support', 'claim', memberId] });
    } finally {
      setBusy(false);
    }
  }

  const c = claim.data?.Claim;
  return (
    <Panel title={t('claim.title')}>
      <form className={css.row} onSubmit={find} aria-label={t('claim.find')}>
        <div className={css.field}>
          <label htmlFor={ids.claim}>{t('claim.id')}</label>
          <input id={ids.claim} className={css.input} inputMode="numeric" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <Button type="submit">{t('claim.find')}</Button>
      </form>
      {claim.isFetching && !claim.data && <p aria-busy="true">{t('loading')}</p>}
      {claim.isError && !claim.isFetching && (
        <Message kind="error">
          <span>{(claim.error as Error).message}</span>
          {/* A 404: no such bill of this member's (a retry would not find it either); else a failure a retry may cure. */}
          {loadFailure(claim.error) === 'loadError' && (
            <>
              {' '}
              <Button size="small" onPress={() => void claim.refetch()}>
                {t('retry')}
              </Button>
            </>
          )}
        </Message>
      )}
      {c && (
        <div className={css.stack} data-testid="support-claim">
          <p>
            {t('claim.summary', {
              number: c.ClaimNumber,
              payee: c.PayeeName,
              billed: formatCurrency(c.BilledAmount),
              status: claimStatusLabel(statusNames, c.ClaimStatusID),
            })}
          </p>
          {claim.data && claim.data.AllowedStatusIDs.length > 0 ? (
            <form className={css.row} onSubmit={change} aria-label={t('claim.change')}>
              <NativeSelectField
                label={t('claim.nextStatus')}
                value={next}
                options={[
                  { value: '', label: t('claim.choose') },
                  ...claim.data.AllowedStatusIDs.map((s) => ({ value: String(s), label: nextStatusLabel(statusNames, s) })),
                ]}
                onChange={setNext}
              />
              <div className={css.field}>
                <label htmlFor={ids.reason}>{t('claim.reason')}</label>
                <input id={ids.reason} className={css.input} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
              </div>
              <Button type="submit" variant="primary" isDisabled={!next} isPending={busy}>
                {t('claim.change')}
              </Button>
            </form>
          ) : (
            <p>{t('claim.final')}</p>
          )}
        </div>
      )}
      {outcome && <Message kind={outcome.kind}>{outcome.text}</Message>}
    </Panel>
  );
}
