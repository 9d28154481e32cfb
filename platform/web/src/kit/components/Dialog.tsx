import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Button, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import * as css from './Dialog.css';

export interface DialogProps {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  /** The heading; it also names the dialog. */
  title: ReactNode;
  /** The content; as a function it receives close(), for a Cancel or Done button. */
  children: ReactNode | ((close: () => void) => ReactNode);
  size?: 'small' | 'medium' | 'large';
  /** A click outside closes the dialog (default true). Escape always closes it unless isKeyboardDismissDisabled. */
  isDismissable?: boolean;
  isKeyboardDismissDisabled?: boolean;
  /** The × button in the header (default true); a dialog whose only exits are its own buttons turns it off. */
  hasCloseButton?: boolean;
  /** alertdialog for a question that interrupts the user (ConfirmDialog). */
  role?: 'dialog' | 'alertdialog';
  /** Id of the text that describes the dialog, read after its name when it opens. */
  'aria-describedby'?: string;
}

/**
 * A modal dialog: the page behind is inert, focus moves in and stays in until it closes, then returns to
 * the element that opened it. Escape closes it.
 */
export function Dialog({
  isOpen,
  onOpenChange,
  title,
  children,
  size = 'medium',
  isDismissable = true,
  isKeyboardDismissDisabled = false,
  hasCloseButton = true,
  role = 'dialog',
  'aria-describedby': describedBy,
}: DialogProps) {
  const { t } = useTranslation('kit');
  return (
    <ModalOverlay
      className={css.overlay}
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isDismissable={isDismissable}
      isKeyboardDismissDisabled={isKeyboardDismissDisabled}
    >
      <Modal className={css.modal[size]}>
        <AriaDialog className={css.dialog} role={role} aria-describedby={describedBy}>
          {({ close }) => (
            <>
              <div className={css.header}>
                <Heading slot="title" level={2} className={css.title}>
                  {title}
                </Heading>
                {hasCloseButton && (
                  <Button className={css.close} aria-label={t('dialog.close')} onPress={close}>
                    <span aria-hidden="true">×</span>
                  </Button>
                )}
              </div>
              <div className={css.body}>{typeof children === 'function' ? children(close) : children}</div>
            </>
          )}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
