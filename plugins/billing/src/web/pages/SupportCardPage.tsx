import { hasAnyRole, Roles } from '@portal/core';
import { layoutCss, showToast, useApi, useRoles } from '@portal/web';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { BillingApi } from '../../contract';
import * as css from '../components/billing.css';
import { CardForm, type CardToEdit } from '../components/CardForm';
import { PROFILE_KEY } from '../components/gateway';
import { SupportCards, supportProfileKey } from '../components/SupportCards';
import { useCardFormDocument } from '../components/useCardFormDocument';

/** Spec 02 section 9: the card frame is at least 560 px on the support card screen. */
const SUPPORT_FRAME_PX = 560;

/**
 * /support/card/:id: card management for a member with the hosted card form from support/token/{memberId}
 * (CareSupport, SuperUser). CareAssist, a member, manages their own cards here.
 */
export default function SupportCardPage() {
  const { id = '' } = useParams();
  const api = useApi();
  const roles = useRoles();
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  const canFrame = useCardFormDocument();
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState<CardToEdit | null>(null);
  const closeEdit = useCallback(() => setEditing(null), []);
  const staff = hasAnyRole(roles, [Roles.CareSupport, Roles.SuperUser]);
  const memberId = Number(id);
  // Cancel at the gateway reloads the profile shown here: the member's for staff, one's own otherwise.
  const profileKey = useMemo(() => (staff ? supportProfileKey(memberId) : PROFILE_KEY), [staff, memberId]);
  const onSaved = useCallback(
    async (editedProfileId?: number) => {
      try {
        const synced = staff
          ? await api.call(BillingApi.supportSync, { body: { MemberId: memberId } }, { notify: false })
          : await api.call(BillingApi.sync, {}, { notify: false });
        queryClient.setQueryData(supportProfileKey(memberId), synced);
        setVersion((v) => v + 1);
        showToast({ kind: 'success', message: t(editedProfileId === undefined ? 'cards.saved' : 'cards.updated') });
      } catch {
        showToast({ kind: 'error', message: t('cards.syncError') });
      }
    },
    [api, staff, memberId, queryClient, t],
  );
  if (!Number.isInteger(memberId) || memberId <= 0) return <p role="alert">{t('loadError')}</p>;
  return (
    <div className={`${layoutCss.card} ${css.stack}`}>
      <h2 className={css.heading}>{t('support.cardsOf', { id: memberId })}</h2>
      {staff && <SupportCards key={version} memberId={memberId} onEdit={setEditing} />}
      {canFrame ? (
        <CardForm
          onSaved={(edited) => void onSaved(edited)}
          profileVersion={version}
          profileKey={profileKey}
          minHeight={SUPPORT_FRAME_PX}
          memberId={staff ? memberId : undefined}
          editing={editing}
          onEditClosed={closeEdit}
        />
      ) : (
        <p aria-busy="true">{t('form.loading')}</p>
      )}
    </div>
  );
}
