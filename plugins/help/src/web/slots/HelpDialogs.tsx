import { hasAnyRole, Roles } from '@portal/core';
import { useRoles } from '@portal/web';
import { useState } from 'react';
import { Button, Dialog, Heading, Menu, MenuItem, MenuTrigger, Modal, ModalOverlay, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import * as css from './HelpDialogs.css';

type DialogId = 'reset-password' | 'prepaid-card' | 'assistance-program';

/** The route-title header's help menu: short guides picked by the user's roles (spec 01 section 2). */
export default function HelpDialogs() {
  const { t } = useTranslation('help');
  const roles = useRoles();
  const [open, setOpen] = useState<DialogId | null>(null);
  const items: DialogId[] = ['reset-password'];
  if (hasAnyRole(roles, [Roles.CareGuard, Roles.SuperUser])) items.push('prepaid-card');
  if (hasAnyRole(roles, [Roles.CareAssist, Roles.SuperUser])) items.push('assistance-program');
  return (
    <>
      <MenuTrigger>
        <Button className={css.trigger}>{t('dialogs.menu')}</Button>
        <Popover className={css.popover}>
          <Menu className={css.menu} onAction={(key) => setOpen(key as DialogId)}>
            {items.map((id) => (
              <MenuItem key={id} id={id} className={css.item}>
                {t(`dialogs.${id}.title`)}
              </MenuItem>
            ))}
          </Menu>
        </Popover>
      </MenuTrigger>
      <ModalOverlay className={css.overlay} isOpen={open !== null} onOpenChange={(o) => !o && setOpen(null)} isDismissable>
        <Modal className={css.modal}>
          <Dialog className={css.dialog}>
            {({ close }) => (
              <>
                <Heading slot="title">{open ? t(`dialogs.${open}.title`) : ''}</Heading>
                <ol>{open && (t(`dialogs.${open}.steps`, { returnObjects: true }) as string[]).map((step) => <li key={step}>{step}</li>)}</ol>
                <Button className={css.trigger} onPress={close}>
                  {t('dialogs.close')}
                </Button>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </>
  );
}
