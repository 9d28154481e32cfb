import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, ButtonGroup } from './Button';
import * as css from './ConfirmDialog.css';
import { Dialog } from './Dialog';
import { Message } from './Message';

export interface ConfirmDialogProps {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  title: string;
  /** The question, read with the title when the dialog opens. */
  message: ReactNode;
  /** Default "Confirm"; name the action instead where possible ("Delete draft"). */
  confirmLabel?: string;
  /** Default "Cancel". */
  cancelLabel?: string;
  /** Shown on the confirm button while onConfirm runs; default "Working…". */
  pendingLabel?: string;
  /** The action destroys or removes something: a danger button, and focus starts on Cancel. */
  destructive?: boolean;
  /**
   * Runs on confirm. A returned promise keeps the dialog open and pending until it settles: fulfilled closes
   * the dialog, rejected shows the error's message (or a general one) and lets the user retry or cancel.
   */
  onConfirm: () => void | Promise<void>;
}

/** Asks before an action: an alertdialog with Cancel and the action, nothing else to click. */
export function ConfirmDialog({
  isOpen,
  onOpenChange,
  title,
  message,
  confirmLabel,
  cancelLabel,
  pendingLabel,
  destructive = false,
  onConfirm,
}: ConfirmDialogProps) {
  const { t } = useTranslation('kit');
  const messageId = useId();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A reopened dialog starts clean, also when the parent closed it (state adjusted during render, not in an effect).
  const [wasOpen, setWasOpen] = useState(isOpen);
  if (wasOpen !== isOpen) {
    setWasOpen(isOpen);
    if (isOpen) setError(null);
  }

  const changeOpen = (open: boolean) => {
    if (!open && pending) return; // the action is under way; its outcome closes the dialog or shows the error
    onOpenChange(open);
  };

  const confirm = async () => {
    setError(null);
    setPending(true);
    try {
      await onConfirm();
    } catch (e) {
      setPending(false);
      setError(e instanceof Error && e.message ? e.message : t('confirm.failed'));
      return;
    }
    setPending(false);
    onOpenChange(false);
  };

  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={changeOpen}
      title={title}
      size="small"
      role="alertdialog"
      isDismissable={false}
      isKeyboardDismissDisabled={pending}
      hasCloseButton={false}
      aria-describedby={messageId}
    >
      <div id={messageId} className={css.message}>
        {message}
      </div>
      {error && <Message kind="error">{error}</Message>}
      <ButtonGroup>
        <Button onPress={() => changeOpen(false)} isDisabled={pending} autoFocus={destructive}>
          {cancelLabel ?? t('confirm.cancel')}
        </Button>
        <Button
          variant={destructive ? 'danger' : 'primary'}
          onPress={() => void confirm()}
          isPending={pending}
          pendingLabel={pendingLabel ?? t('confirm.pending')}
          autoFocus={!destructive}
        >
          {confirmLabel ?? t('confirm.confirm')}
        </Button>
      </ButtonGroup>
    </Dialog>
  );
}
