import { hasAnyRole, Roles } from '@portal/core';
import { useBrand, useRoles } from '@portal/web';
import { Dialog, MenuButton } from '@portal/web/kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as css from './HelpDialogs.css';
import { resetPasswordVideo } from './videos';

type DialogId = 'reset-password' | 'prepaid-card' | 'assistance-program';

/** The route-title header's help menu: short guides picked by the user's roles (spec 01 section 2). */
export default function HelpDialogs() {
  const { t, i18n } = useTranslation('help');
  const roles = useRoles();
  const brand = useBrand();
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
      <Dialog
        isOpen={open !== null}
        onOpenChange={(isOpen) => !isOpen && setOpen(null)}
        title={open ? t(`dialogs.${open}.title`) : ''}
        size={open === 'reset-password' ? 'large' : 'medium'}
      >
        {open === 'reset-password' && <ResetPasswordVideo brand={brand.id} language={i18n.resolvedLanguage ?? i18n.language} />}
        <ol>{open && (t(`dialogs.${open}.steps`, { returnObjects: true }) as string[]).map((step) => <li key={step}>{step}</li>)}</ol>
      </Dialog>
    </>
  );
}

/** The reset-password video (spec 01 section 2) with its captions on; the written steps below it say the same. */
function ResetPasswordVideo({ brand, language }: { brand: string; language: string }) {
  const { t } = useTranslation('help');
  const found = resetPasswordVideo(brand, language);
  if (!found) return null;
  return (
    <video className={css.video} controls preload="metadata" aria-label={t('dialogs.reset-password.video')} data-testid="help-video">
      <source src={found.video} type="video/webm" />
      <track kind="captions" src={found.captions} srcLang={found.language} label={t(`dialogs.reset-password.captions.${found.language}`)} default />
    </video>
  );
}
