import { Button, Message, reloadKeepingFocus } from '@portal/web/kit';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Shown when a save was refused for a stale Version (409): the typed values stay on screen until the user
 * presses Reload, which reads the user again and starts the edit over from what is stored now. Focus then goes to the
 * form's first field (the kit's reloadKeepingFocus), not to the page's start. `text` words it for another record than
 * the user (a team's rename).
 */
export function StaleWarning({ onReload, text }: { onReload: () => Promise<void>; text?: string }) {
  const { t } = useTranslation('users');
  const [loading, setLoading] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
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
    <Message kind="warning" autoFocus elementRef={ref}>
      <span data-testid="users-stale">{text ?? t('stale.text')}</span>{' '}
      <Button size="small" onPress={() => reloadKeepingFocus(ref.current, reload)} isPending={loading}>
        {t('stale.reload')}
      </Button>
    </Message>
  );
}
