import { Button, Message } from '@portal/web/kit';
import { useTranslation } from 'react-i18next';

/** A list that failed to load: said at once (an alert) with a Try again that asks for it anew. */
export function LoadError({ onRetry, 'data-testid': testId }: { onRetry: () => void; 'data-testid'?: string }) {
  const { t } = useTranslation('documents');
  return (
    <Message kind="error" data-testid={testId}>
      <span>{t('error')}</span>{' '}
      <Button size="small" onPress={onRetry}>
        {t('retry')}
      </Button>
    </Message>
  );
}
