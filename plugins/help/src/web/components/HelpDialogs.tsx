import { hasAnyRole, Roles } from '@portal/core';
import { useRoles } from '@portal/web';
import { Dialog, MenuButton } from '@portal/web/kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

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
      <MenuButton
        label={t('dialogs.menu')}
        size="small"
        items={items.map((id) => ({ id, label: t(`dialogs.${id}.title`) }))}
        onAction={(id) => setOpen(items.find((known) => known === id) ?? null)}
      />
      <Dialog isOpen={open !== null} onOpenChange={(isOpen) => !isOpen && setOpen(null)} title={open ? t(`dialogs.${open}.title`) : ''}>
        <ol>{open && (t(`dialogs.${open}.steps`, { returnObjects: true }) as string[]).map((step) => <li key={step}>{step}</li>)}</ol>
      </Dialog>
    </>
  );
}
