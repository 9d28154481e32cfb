import { showToast, useApi, useBrand } from '@portal/web';
import { Button, ConfirmDialog, LoadFailed, Message } from '@portal/web/kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BillingApi, type BillingProfile, type CardProfile, cardSaveWaitMs } from '../../contract';
import * as css from './billing.css';
import { CardForm, type CardToEdit } from './CardForm';
import { CardTable } from './CardTable';
import { CountdownDialog } from './CountdownDialog';
import { PROFILE_KEY } from './gateway';
import { canPayMembership } from './subscriptionView';
import { useCardFormDocument } from './useCardFormDocument';

export { PROFILE_KEY };

/** Reads the billing profile; shared by the subscription and card sections. */
export function useBillingProfile() {
  const api = useApi();
  return useQuery({ queryKey: PROFILE_KEY, queryFn: () => api.call(BillingApi.profile, {}, { notify: false }) });
}

export function CardsSection() {
  const api = useApi();
  const saveWaitMs = cardSaveWaitMs(useBrand());
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  const profile = useBillingProfile();
  const canFrame = useCardFormDocument();
  const [deleting, setDeleting] = useState<CardProfile | null>(null);
  const [dialog, setDialog] = useState<'deactivated' | 'reactivated' | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [editing, setEditing] = useState<CardToEdit | null>(null);
  const closeEdit = useCallback(() => setEditing(null), []);
  const [version, setVersion] = useState(0);

  const refresh = useCallback(
    async (p?: BillingProfile) => {
      if (p) queryClient.setQueryData(PROFILE_KEY, p);
      else await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
      setVersion((v) => v + 1);
    },
    [queryClient],
  );

  /**
   * After a save at the gateway: sync until the new card shows up (or, after an edit, until the edited card reads
   * differently) or the wait runs out.
   */
  const onSaved = useCallback(
    async (editedProfileId?: number) => {
      const profiles = profile.data?.Profiles ?? [];
      const before = profiles.find((c) => c.ProfileId === editedProfileId);
      const arrived = (synced: BillingProfile) => {
        if (!before) return synced.Profiles.length > profiles.length;
        const now = synced.Profiles.find((c) => c.ProfileId === editedProfileId);
        return !now || now.Expiration !== before.Expiration || now.CardNumber !== before.CardNumber || now.CardType !== before.CardType;
      };
      setWaiting(true);
      const deadline = Date.now() + saveWaitMs;
      try {
        for (;;) {
          const synced = await api.call(BillingApi.sync, {}, { notify: false });
          if (arrived(synced) || Date.now() >= deadline) {
            const { Reactivated, ...p } = synced;
            await refresh(p);
            if (Reactivated) setDialog('reactivated');
            else showToast({ kind: 'success', message: t(before ? 'cards.updated' : 'cards.saved') });
            return;
          }
          await new Promise((r) => setTimeout(r, 1000));
        }
      } catch {
        showToast({ kind: 'error', message: t('cards.syncError') });
      } finally {
        setWaiting(false);
      }
    },
    [api, saveWaitMs, profile.data?.Profiles, refresh, t],
  );

  const makeDefault = useMutation({
    mutationFn: (c: CardProfile) => api.call(BillingApi.setDefaultCard, { body: { ProfileId: c.ProfileId } }),
    onSuccess: (p) => refresh(p),
  });
  // The member moves the membership onto another card (POST customer/subscription): its renewals are charged there.
  const useForMembership = useMutation({
    mutationFn: (c: CardProfile) => api.call(BillingApi.setSubscriptionCard, { body: { ProfileId: c.ProfileId } }),
    onSuccess: async (p, c) => {
      await refresh(p);
      showToast({ kind: 'success', message: t('cards.usedForMembership', { card: c.CardNumber }) });
    },
  });
  const remove = useMutation({
    mutationFn: (c: CardProfile) => api.call(BillingApi.deleteProfile, { params: { id: c.ProfileId } }),
    onSuccess: async (r) => {
      setDeleting(null);
      await refresh();
      if (r.Deactivated) setDialog('deactivated');
      else showToast({ kind: 'success', message: t('cards.deleted') });
    },
  });

  const cards = profile.data?.Profiles ?? [];
  return (
    <section className={css.stack} aria-labelledby="billing-cards-heading">
      <h2 id="billing-cards-heading" className={css.heading}>
        {t('cards.heading')}
      </h2>
      {(profile.isPending || (profile.isError && profile.isFetching)) && <p aria-busy="true">{t('loading')}</p>}
      {profile.isError && !profile.isFetching && <LoadFailed message={t('loadError')} onRetry={() => void profile.refetch()} />}
      {profile.data?.IsDeactivated && <Message kind="warning">{t('cards.deactivatedNote')}</Message>}
      {profile.data && cards.length === 0 && <p>{t('cards.none')}</p>}
      {cards.length > 0 && (
        <CardTable
          cards={cards}
          testIds
          actions={(c) => (
            <>
              <Button
                size="small"
                onPress={() => setEditing({ ProfileId: c.ProfileId, CardNumber: c.CardNumber })}
                aria-label={t('cards.editOf', { card: c.CardNumber })}
              >
                {t('cards.edit')}
              </Button>
              {!c.IsDefault && (
                <Button size="small" onPress={() => makeDefault.mutate(c)} aria-label={t('cards.makeDefaultOf', { card: c.CardNumber })}>
                  {t('cards.makeDefault')}
                </Button>
              )}
              {canPayMembership(profile.data, c) && (
                <Button
                  size="small"
                  onPress={() => useForMembership.mutate(c)}
                  isPending={useForMembership.isPending && useForMembership.variables?.ProfileId === c.ProfileId}
                  pendingLabel={t('cards.usingForMembership')}
                  aria-label={t('cards.useForMembershipOf', { card: c.CardNumber })}
                >
                  {t('cards.useForMembership')}
                </Button>
              )}
              <Button size="small" variant="danger" onPress={() => setDeleting(c)} aria-label={t('cards.deleteOf', { card: c.CardNumber })}>
                {t('cards.delete')}
              </Button>
            </>
          )}
        />
      )}
      {waiting && <p aria-busy="true">{t('cards.waiting')}</p>}
      {canFrame ? (
        <CardForm onSaved={(edited) => void onSaved(edited)} profileVersion={version} profileKey={PROFILE_KEY} editing={editing} onEditClosed={closeEdit} />
      ) : (
        <p aria-busy="true">{t('form.loading')}</p>
      )}
      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('cards.deleteTitle')}
        message={t(cards.length === 1 ? 'cards.deleteLast' : 'cards.deleteMessage', { card: deleting?.CardNumber ?? '' })}
        confirmLabel={t('cards.delete')}
        destructive
        onConfirm={() => (deleting ? remove.mutateAsync(deleting).then(() => undefined) : undefined)}
      />
      {dialog && <CountdownDialog kind={dialog} />}
    </section>
  );
}
