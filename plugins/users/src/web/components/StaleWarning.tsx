import { Button, Message } from '@portal/web/kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Shown when a save was refused for a stale Version (409): the typed values stay on screen until the user
 * presses Reload, which reads the user again and starts the edit over from what is stored now.
 */
export function StaleWarning({ onReload }: { onReload: () => Promise<void> }) {
  const { t } = useTranslation('users');
  const [loading, setLoading] = useState(false);
  const reload = async () => {
    setLoading(true);
    try {
      await onReload();
    } catch {
      // Shown as a toast by the client; the warning stays to try again.
    } finally {
      setLoading(false);
    }
  };
  return (
    <Message kind="warning" autoFocus>
      <span data-testid="users-stale">{t('stale.text')}</span>{' '}
      <Button size="small" onPress={() => void reload()} isPending={loading}>
        {t('stale.reload')}
      </Button>
    </Message>
  );
}
