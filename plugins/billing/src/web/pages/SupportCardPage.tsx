import { hasAnyRole, Roles } from '@portal/core';
import { layoutCss, showToast, useApi, useRoles } from '@portal/web';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { BillingApi } from '../../contract';
import * as css from '../components/billing.css';
import { CardForm, type CardToEdit } from '../components/CardForm';
import { CardsSection } from '../components/CardsSection';
import { SupportCards, supportProfileKey } from '../components/SupportCards';
import { useCardFormDocument } from '../components/useCardFormDocument';

/** Spec 02 section 9: the card frame is at least 560 px on the support card screen. */
const SUPPORT_FRAME_PX = 560;

/**
 * /support/card/:id: card management for a member with the hosted card form from support/token/{memberId}
 * (CareSupport, SuperUser). CareAssist, a member, manages their own cards here: the cards section of their payment
 * page (their list, add, edit and delete, under the profile's cache key), whatever member the address names.
 */
export default function SupportCardPage() {
  const staff = hasAnyRole(useRoles(), [Roles.CareSupport, Roles.SuperUser]);
  if (!staff)
    return (
      <div className={layoutCss.card}>
        <CardsSection />
      </div>
    );
  return <MemberCards />;
}

/** Staff: the cards of the member in the address, through the support calls. */
function MemberCards() {
  const { id = '' } = useParams();
  const api = useApi();
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  const canFrame = useCardFormDocument();
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState<CardToEdit | null>(null);
  const closeEdit = useCallback(() => setEditing(null), []);
  const memberId = Number(id);
  // Cancel at the gateway reloads the member's profile shown here.
  const profileKey = useMemo(() => supportProfileKey(memberId), [memberId]);
  const onSaved = useCallback(
    async (editedProfileId?: number) => {
      try {
        const synced = await api.call(BillingApi.supportSync, { body: { MemberId: memberId } }, { notify: false });
        queryClient.setQueryData(profileKey, synced);
        setVersion((v) => v + 1);
        showToast({ kind: 'success', message: t(editedProfileId === undefined ? 'cards.saved' : 'cards.updated') });
      } catch {
        showToast({ kind: 'error', message: t('cards.syncError') });
      }
    },
    [api, memberId, profileKey, queryClient, t],
  );
  if (!Number.isInteger(memberId) || memberId <= 0) return <p role="alert">{t('loadError')}</p>;
  return (
    <div className={`${layoutCss.card} ${css.stack}`}>
      <h2 className={css.heading}>{t('support.cardsOf', { id: memberId })}</h2>
      <SupportCards key={version} memberId={memberId} onEdit={setEditing} />
      {canFrame ? (
        <CardForm
          onSaved={(edited) => void onSaved(edited)}
          profileVersion={version}
          profileKey={profileKey}
          minHeight={SUPPORT_FRAME_PX}
          memberId={memberId}
          editing={editing}
          onEditClosed={closeEdit}
        />
      ) : (
        <p aria-busy="true">{t('form.loading')}</p>
      )}
    </div>
  );
}
