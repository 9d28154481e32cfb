import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../kit/components/ConfirmDialog';

/**
 * "Leave without saving?" (shell/LeaveGuard). Focus starts on Stay on this page (a destructive confirm), so Enter or
 * Escape keeps the changes. `onStay` also runs when the dialog closes after Leave (ConfirmDialog closes itself then).
 */
export default function LeaveDialog({ isOpen, onStay, onLeave }: { isOpen: boolean; onStay: () => void; onLeave: () => void }) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onStay();
      }}
      title={t('leave.title')}
      message={t('leave.message')}
      confirmLabel={t('leave.confirm')}
      cancelLabel={t('leave.cancel')}
      destructive
      onConfirm={onLeave}
    />
  );
}
