import { showToast, useApi, useBrand, useFocusAfterRedraw } from '@portal/web';
import { neighboursOf } from '@portal/web/focus';
import { Button, ConfirmDialog, LoadFailed, Message } from '@portal/web/kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
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

/** The attribute a card's Edit button (the first of its row's actions) carries: the card's ProfileId. */
const EDIT = 'data-card-edit';

/**
 * Where focus goes once the cards are drawn after an action that took away the control the user was on: a card's Edit
 * (its edit form closed; `asDefault`: its Make default pressed, gone once the cards show it as the default), the Edit
 * of the card shown after a deleted one (else before it; the section's heading when no card is left), or Add card (the
 * new-card form closed). A wish waits for the cards it is about, then moves focus only while it is lost.
 */
type FocusWish = { to: 'card'; profileId: number; asDefault?: boolean } | { to: 'neighbour'; deleted: number; shown: number[] } | { to: 'add' };

/** Whether the cards shown are not yet the ones the wish is about (the deleted card still there, the new default not yet shown). */
function waitsFor(wish: FocusWish, shown: readonly CardProfile[] | undefined): boolean {
  const cards = shown ?? [];
  if (wish.to === 'neighbour') return cards.some((c) => c.ProfileId === wish.deleted);
  if (wish.to === 'card' && wish.asDefault) return !cards.some((c) => c.ProfileId === wish.profileId && c.IsDefault);
  return false;
}

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
  const heading = useRef<HTMLHeadingElement>(null);
  const section = useRef<HTMLElement>(null);
  const profiles = profile.data?.Profiles;
  const want = useFocusAfterRedraw(profiles, waitsFor, (wish: FocusWish) => {
    const root = section.current;
    if (!root) return;
    const edit = (id: number | string) => root.querySelector<HTMLButtonElement>(`[${EDIT}="${id}"]`);
    let target: HTMLElement | null | undefined;
    // Add card is the card form's one button while the form is closed.
    if (wish.to === 'add') target = root.querySelector<HTMLButtonElement>('[data-edit-state="0"] button');
    else if (wish.to === 'card') target = edit(wish.profileId);
    else target = neighboursOf(wish.shown.map(String), String(wish.deleted)).map(edit).find(Boolean) ?? heading.current;
    target?.focus();
  });
  /** The card form (a new card's, or a card's edit) closed, with focus in its frame gone: back to Add card or that card's Edit. */
  const formClosed = useCallback((edited: number | undefined) => want(edited === undefined ? { to: 'add' } : { to: 'card', profileId: edited }), [want]);
  // The form's Cancel at the gateway: the profile read again (as CardForm does without this), focus put back.
  const onCancel = useCallback(() => {
    formClosed(editing?.ProfileId);
    void queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
  }, [editing, formClosed, queryClient]);

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
      formClosed(editedProfileId);
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
    [api, saveWaitMs, profile.data?.Profiles, refresh, t, formClosed],
  );

  const makeDefault = useMutation({
    mutationFn: (c: CardProfile) => api.call(BillingApi.setDefaultCard, { body: { ProfileId: c.ProfileId } }),
    // Its Make default goes once it is the default: focus stays in its row, on its Edit, and the change is said.
    onSuccess: async (p, c) => {
      want({ to: 'card', profileId: c.ProfileId, asDefault: true });
      await refresh(p);
      showToast({ kind: 'success', message: t('cards.madeDefault', { card: c.CardNumber }) });
    },
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
    onSuccess: async (r, c) => {
      setDeleting(null);
      // The dialog gives focus back to the card's Delete, gone with its row once the cards are read again. A deactivated
      // account's dialog takes focus itself.
      if (!r.Deactivated) want({ to: 'neighbour', deleted: c.ProfileId, shown: (profiles ?? []).map((x) => x.ProfileId) });
      await refresh();
      if (r.Deactivated) setDialog('deactivated');
      else showToast({ kind: 'success', message: t('cards.deleted') });
    },
  });

  const cards = profile.data?.Profiles ?? [];
  return (
    <section ref={section} className={css.stack} aria-labelledby="billing-cards-heading">
      {/* Focusable (not in the tab order) for focus to land on when the last card shown was deleted. */}
      <h2 ref={heading} id="billing-cards-heading" className={css.heading} tabIndex={-1}>
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
                data-card-edit={c.ProfileId}
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
        <CardForm
          onSaved={(edited) => void onSaved(edited)}
          onCancel={onCancel}
          profileVersion={version}
          profileKey={PROFILE_KEY}
          editing={editing}
          onEditClosed={closeEdit}
        />
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
