import { formatDateTime, formatIsoDayText, hasAnyRole, idSchema, Roles } from '@portal/core';
import { layoutCss, loadFailure, newCreateKey, SubmissionKeys, useActingMemberId, useApi, useHeldRecord, useRoles, useStaleSave } from '@portal/web';
import { StaleNotice } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type Ref, useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ClaimsAccess } from '../../access';
import { type Claim, ClaimsApi } from '../../contract';
import { BillHistory } from '../components/BillHistory';
import { BillPanels } from '../components/BillPanels';
import { ClaimForm, toPayload } from '../components/ClaimForm';
import * as css from '../components/claims.css';
import { claimTypeName, money, statusName } from '../components/format';
import { afterEditCloses } from '../components/formFocus';
import { shownPayee } from '../components/payee';
import { latestStatusReason } from '../components/statusReason';
import { useClaimLookups } from '../components/useClaimLookups';

/** The bill as loaded; `ref` lets focus come to it when an edit closed and Edit is no longer there. */
function ClaimView({ claim, ref }: { claim: Claim; ref?: Ref<HTMLDListElement> }) {
  const { t } = useTranslation('claims');
  const { statusNames, billTypeNames } = useClaimLookups();
  const none = t('detail.none');
  const rows: [string, string][] = [
    [t('grid.ClaimID'), String(claim.ClaimID)],
    [t('grid.ClaimNumber'), claim.ClaimNumber || none],
    [t('detail.member'), `${claim.MemberName} (${claim.MemberNumber})`],
    [t('grid.PayeeName'), shownPayee(t, claim)],
    [t('grid.ClaimStatusID'), statusName(statusNames, claim.ClaimStatusID)],
    [t('grid.BillTypeID'), billTypeNames.get(claim.BillTypeID) ?? String(claim.BillTypeID)],
    [t('grid.ClaimTypeID'), claimTypeName(t, claim.ClaimTypeID)],
    [t('grid.BilledAmount'), money(claim.BilledAmount)],
    [t('grid.SubmittedUNCAmount'), money(claim.SubmittedUNCAmount) || none],
    [t('grid.ServiceDateFrom'), formatIsoDayText(claim.ServiceDateFrom)],
    [t('grid.ServiceDateTo'), formatIsoDayText(claim.ServiceDateTo) || none],
    [t('grid.ReceivedDate'), formatIsoDayText(claim.ReceivedDate)],
    [t('grid.PaidDate'), formatIsoDayText(claim.PaidDate) || none],
    [t('grid.PaidAmount'), money(claim.PaidAmount) || none],
    [t('grid.CheckNumber'), claim.CheckNumber ?? none],
  ];
  return (
    <dl ref={ref} tabIndex={-1} className={css.dl} data-testid="claim-view">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt className={css.dt}>{k}</dt>
          <dd className={css.dd}>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A bill that could not be shown: not found (no retry: it would be not found again), or a load error with a retry. */
function LoadFailure({ failure, onRetry }: { failure: 'notFound' | 'loadError'; onRetry?: () => void }) {
  const { t } = useTranslation('claims');
  return (
    <div className={layoutCss.card}>
      <p role="alert">{t(`detail.${failure}`)}</p>
      <div className={css.row}>
        {failure === 'loadError' && onRetry && (
          <Button className={css.button} onPress={onRetry}>
            {t('detail.retry')}
          </Button>
        )}
        <Link to="/claims">{t('detail.back')}</Link>
      </div>
    </div>
  );
}

/** The id in the address of the details screen's create mode: /claims/new. */
export const NEW_BILL_ID = 'new';

/**
 * /claims/new, the details screen's create mode (spec 02 section 2: /claims/:id is "view, edit, create"): the form
 * opens in edit; once saved the address becomes the new bill's, which opens in view. A member's bill is their own;
 * staff acting for nobody name the member.
 */
function NewBill() {
  const api = useApi();
  const roles = useRoles();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const acting = useActingMemberId();
  const { t } = useTranslation('claims');
  const [busy, setBusy] = useState(false);
  // One IdempotencyKey per submission: saving the same bill again after a failure (an answer lost) adds it once.
  const keys = useRef(new SubmissionKeys(() => newCreateKey('claim'))).current;
  if (!hasAnyRole(roles, ClaimsAccess.createBill)) return <LoadFailure failure="notFound" />;
  return (
    <div className={layoutCss.card}>
      <h2>{t('title.new')}</h2>
      <ClaimForm
        initial={null}
        askMember={acting === null}
        busy={busy}
        onCancel={() => navigate('/claims')}
        onSave={async (v) => {
          setBusy(true);
          // A failure rejects: the API client showed the server's message; the entries stay in the form, unsaved (the kit
          // Form: leaving asks).
          try {
            const payload = toPayload(v, hasAnyRole(roles, [Roles.SuperUser]));
            const created = await api.call(ClaimsApi.create, { body: { ...payload, IdempotencyKey: keys.keyFor(payload) } });
            keys.added();
            await queryClient.invalidateQueries({ queryKey: ['claims'] });
            navigate(`/claims/${created.ClaimID}`, { replace: true });
          } finally {
            setBusy(false);
          }
        }}
      />
    </div>
  );
}

/** /claims/:id: view, then edit, then save or cancel (cancel restores the bill as loaded); /claims/new adds one. */
export default function ClaimDetailPage() {
  const { id } = useParams();
  return id?.toLowerCase() === NEW_BILL_ID ? <NewBill /> : <BillDetails id={id} />;
}

function BillDetails({ id }: { id: string | undefined }) {
  const api = useApi();
  const roles = useRoles();
  const queryClient = useQueryClient();
  const { t } = useTranslation('claims');
  const { statusNames } = useClaimLookups();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  // Edit swaps the bill for the form, and Save or Cancel swaps it back: the button pressed goes away each time. The
  // form focuses its first field; once it closes, focus comes back to Edit (or to the bill, should Edit be gone).
  const editButton = useRef<HTMLButtonElement>(null);
  const view = useRef<HTMLDListElement>(null);
  const [returnFocus, setReturnFocus] = useState(false);
  const close = () => {
    setEditing(false);
    setReturnFocus(true);
  };
  // An address naming no claim ID ('/claims/abc') is not found without asking: the server would refuse it as invalid.
  const parsed = idSchema.safeParse(id);
  const claimId = parsed.success ? parsed.data : null;
  const key = ['claims', 'details', id];
  const details = useQuery({
    queryKey: key,
    queryFn: () => api.call(ClaimsApi.details, { body: { ClaimID: claimId as number } }, { notify: false }),
    enabled: claimId !== null,
  });
  /**
   * The bill the open edit started from (null: not editing). The form and its save keep it while the edit is open, so
   * a refetch of the bill (the window focused again, the network back) cannot swap the typed values for someone else's
   * save: only Reload, Cancel or a save replace it.
   */
  const held = useHeldRecord(details.data?.Claim, editing ? claimId : null);
  const editFrom = editing ? (held.record ?? null) : null;
  // The server's words when a save was refused as stale: said with a Reload (the bill as it is now, into the form)
  // until the user takes it.
  const stale = useStaleSave(key, held.release);
  const canEdit = details.data?.CanEdit ?? false;
  useEffect(() => {
    if (!returnFocus || editing) return;
    setReturnFocus(false);
    (afterEditCloses(canEdit) === 'edit' ? editButton.current : view.current)?.focus();
  }, [returnFocus, editing, canEdit]);

  if (claimId === null) return <LoadFailure failure="notFound" />;
  // A retry after a failure reads as loading until it answers (the query's status stays 'error' meanwhile).
  if (details.isPending || (details.isError && details.isFetching)) return <p aria-busy="true">{t('detail.loading')}</p>;
  if (details.isError) return <LoadFailure failure={loadFailure(details.error)} onRetry={() => void details.refetch()} />;
  const { Claim: claim, StatusHistory, CanEdit } = details.data;
  const reason = latestStatusReason(StatusHistory);

  return (
    <div className={css.stack}>
      <div className={layoutCss.card}>
        {editFrom ? (
          <ClaimForm
            // A reload brings a new Version: the form starts again from the bill as it is now.
            key={editFrom.Version}
            initial={editFrom}
            askMember={false}
            busy={busy}
            focusFirst
            conflict={stale.conflict && <StaleNotice message={stale.conflict} onReload={stale.reload} />}
            onCancel={() => {
              close();
              // Edits given up after a refusal: show (and later edit) the bill as it is now, not the stale copy.
              if (stale.conflict) void stale.reload();
            }}
            onSave={async (v) => {
              setBusy(true);
              stale.clear();
              try {
                await api.call(
                  ClaimsApi.update,
                  { body: { ClaimID: editFrom.ClaimID, Version: editFrom.Version, ...toPayload(v, hasAnyRole(roles, [Roles.SuperUser])) } },
                  // A stale save is said by the form's notice alone; other failures are toasted.
                  { notify: stale.notify },
                );
                await queryClient.invalidateQueries({ queryKey: ['claims'] });
                close();
              } catch (e) {
                // The API client showed the server's message; the edits stay in the form. A stale Version would be
                // refused again: the form says so and offers a Reload (and the cached copy is marked out of date).
                stale.onError(e);
                // Rejected: the kit Form counts the edits as unsaved (leaving asks).
                throw e;
              } finally {
                setBusy(false);
              }
            }}
          />
        ) : (
          <div className={css.stack}>
            <ClaimView claim={claim} ref={view} />
            <div className={css.row}>
              {CanEdit && (
                <Button ref={editButton} className={css.primary} onPress={() => setEditing(true)}>
                  {t('detail.edit')}
                </Button>
              )}
              <Link to="/claims">{t('detail.back')}</Link>
            </div>
          </div>
        )}
      </div>
      <section className={layoutCss.card} aria-labelledby="history">
        <h2 id="history">{t('detail.history')}</h2>
        {reason !== null && (
          <p data-testid="status-reason">
            {t('detail.statusReason')}: <strong>{reason}</strong>
          </p>
        )}
        {StatusHistory.length === 0 ? (
          <p>{t('detail.historyEmpty')}</p>
        ) : (
          <ul>
            {StatusHistory.map((h) => (
              <li key={`${h.ChangedAt}-${h.ToStatusID}`}>
                {t('detail.historyRow', {
                  from: h.FromStatusID === null ? t('detail.none') : (statusNames.get(h.FromStatusID) ?? h.FromStatusID),
                  to: statusNames.get(h.ToStatusID) ?? h.ToStatusID,
                  by: h.ChangedBy ?? t('detail.none'),
                  at: formatDateTime(h.ChangedAt),
                })}
                {/* The reason typed with a status change; the first entry's note (Created) is not one. */}
                {h.FromStatusID !== null && h.Reason ? ` — ${t('detail.historyReason', { reason: h.Reason })}` : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      {/* What other plugins hold about the bill (the receipts of the reimbursement request it was made from). */}
      <BillPanels ClaimID={claim.ClaimID} ClaimNumber={claim.ClaimNumber} MemberID={claim.MemberID} />
      <BillHistory bill={claim} />
    </div>
  );
}
