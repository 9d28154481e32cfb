import { useKernel } from '@portal/web';
import { Button, Dialog } from '@portal/web/kit';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec 01 sections 4 and 9: the user is signed out after a 10-second countdown. */
export const LOGOUT_COUNTDOWN_SECONDS = 10;

interface Props {
  kind: 'deactivated' | 'reactivated';
  seconds?: number;
}

/** The account deactivated / reactivated dialog: counts down, then signs the user out. */
export function CountdownDialog({ kind, seconds = LOGOUT_COUNTDOWN_SECONDS }: Props) {
  const { t } = useTranslation('billing');
  const kernel = useKernel();
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const timer = window.setInterval(() => setLeft((s) => Math.max(0, s - 1)), 1000);
    return () => window.clearInterval(timer);
  }, []);
  useEffect(() => {
    if (left === 0) void kernel.signOut();
  }, [left, kernel]);
  return (
    <Dialog isOpen onOpenChange={() => {}} title={t(`${kind}.title`)} isDismissable={false} isKeyboardDismissDisabled hasCloseButton={false} role="alertdialog">
      <p>{t(`${kind}.text`)}</p>
      <p aria-live="polite" data-testid="countdown">
        {t('countdown', { count: left })}
      </p>
      <Button variant="primary" onPress={() => void kernel.signOut()}>
        {t('signOutNow')}
      </Button>
    </Dialog>
  );
}
