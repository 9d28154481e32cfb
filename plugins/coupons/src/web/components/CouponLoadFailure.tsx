import { loadFailure } from '@portal/web';
import { Button, Message } from '@portal/web/kit';
import { useTranslation } from 'react-i18next';

/** A coupon that could not be loaded: not found (no retry: it would be not found again), or a load error with a retry. */
export function CouponLoadFailure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('coupons');
  const failure = loadFailure(error);
  return (
    <Message kind="error">
      <span>{t(failure)}</span>{' '}
      {failure === 'loadError' && (
        <Button size="small" onPress={onRetry}>
          {t('retry')}
        </Button>
      )}
    </Message>
  );
}
