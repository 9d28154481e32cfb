import { loadFailure, useApi } from '@portal/web';
import { Button, LoadFailed, Message } from '@portal/web/kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BillingApi, type CardProfile } from '../../contract';
import type { CardToEdit } from './CardForm';
import { CardTable } from './CardTable';

export const supportProfileKey = (memberId: number) => ['billing', 'support', 'profile', memberId] as const;

/**
 * A member's cards as support sees them (support/profile), with Make default (support/defaultcard/update) and, on the
 * card screen (given onEdit), Edit: the gateway's edit-payment form, opened by that page's card form.
 */
export function SupportCards({ memberId, onEdit }: { memberId: number; onEdit?: (card: CardToEdit) => void }) {
  const api = useApi();
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  const profile = useQuery({
    queryKey: supportProfileKey(memberId),
    queryFn: () => api.call(BillingApi.supportProfile, { body: { MemberId: memberId } }, { notify: false }),
  });
  const makeDefault = useMutation({
    mutationFn: (c: CardProfile) => api.call(BillingApi.supportDefaultCard, { body: { MemberId: memberId, ProfileId: c.ProfileId } }),
    onSuccess: (p) => queryClient.setQueryData(supportProfileKey(memberId), p),
  });
  if (profile.isPending || (profile.isError && profile.isFetching)) return <p aria-busy="true">{t('loading')}</p>;
  if (profile.isError) {
    // A 404: no such member (a retry would not find one either); else a failure a retry may cure.
    if (loadFailure(profile.error) === 'notFound') return <Message kind="error">{t('support.notFound')}</Message>;
    return <LoadFailed message={t('support.loadError')} onRetry={() => void profile.refetch()} />;
  }
  const cards = profile.data.Profiles;
  if (cards.length === 0) return <p>{t('support.noCards')}</p>;
  return (
    <CardTable
      cards={cards}
      actions={(c) => (
        <>
          {onEdit && (
            <Button
              size="small"
              aria-label={t('cards.editOf', { card: c.CardNumber })}
              onPress={() => onEdit({ ProfileId: c.ProfileId, CardNumber: c.CardNumber })}
            >
              {t('cards.edit')}
            </Button>
          )}
          {!c.IsDefault && (
            <Button size="small" aria-label={t('cards.makeDefaultOf', { card: c.CardNumber })} onPress={() => makeDefault.mutate(c)}>
              {t('cards.makeDefault')}
            </Button>
          )}
        </>
      )}
    />
  );
}
