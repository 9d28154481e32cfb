import type { AdminRole } from '@portal/core';
import { useApi } from '@portal/web';
import { Button, Message, Toolbar } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UsersApi } from '../../contract';
import { applyRoleClick, EXCLUSIVITY_RULES, isRoleKey, ROLE_CATALOGUE, ROLE_KEYS } from '../../rules';
import { ChoiceBox } from './ChoiceBox';
import { useCaller } from './useCaller';
import * as css from './users.css';

/** Roles: view, then edit with checkboxes that apply the exclusivity rules as they are clicked and say why a box cleared. */
export function RolesTab({ userId }: { userId: string }) {
  const { t } = useTranslation('users');
  const api = useApi();
  const queryClient = useQueryClient();
  const caller = useCaller();
  const roles = useQuery({ queryKey: ['users', userId, 'roles'], queryFn: () => api.call(UsersApi.roleGet, { params: { userId } }) });
  const [draft, setDraft] = useState<AdminRole[] | null>(null);
  const [cleared, setCleared] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);

  if (roles.isPending) return <p aria-busy="true">{t('loading')}</p>;
  if (roles.isError) return <Message kind="error">{t('detail.loadError')}</Message>;
  const held = roles.data.Models.Roles.filter((r) => r.IsSelected)
    .map((r) => r.Key)
    .filter(isRoleKey);
  const or = (list: readonly string[]) => list.join(` ${t('or')} `);

  const click = (role: AdminRole, selected: boolean) => {
    const result = applyRoleClick(draft ?? held, role, selected);
    setDraft(result.roles);
    setCleared(
      result.cleared.map((c) => {
        const rule = EXCLUSIVITY_RULES.find((r) => r.role === c.because);
        const allowed = ROLE_KEYS.filter((k) => k !== c.because && !rule?.clears.includes(k));
        return t('roles.cleared', { role: c.role, because: c.because, allowed: or(allowed) });
      }),
    );
  };
  const cancel = () => {
    setDraft(null);
    setCleared([]);
  };
  const save = async () => {
    if (!draft) return;
    setSaving(true);
    try {
      const ids = ROLE_CATALOGUE.filter((r) => draft.includes(r.Key)).map((r) => r.Id);
      await api.call(UsersApi.roleSave, { body: { Id: userId, Version: roles.data.Version, Models: { ContactId: roles.data.Models.ContactId, Roles: ids } } });
      await queryClient.invalidateQueries({ queryKey: ['users', userId] });
      cancel();
    } catch {
      // The server's refusal is shown as a toast; the boxes stay as they are to correct.
    } finally {
      setSaving(false);
    }
  };

  if (!draft) {
    return (
      <section className={css.stack} aria-label={t('tabs.roles')}>
        <ul>
          {ROLE_KEYS.map((k) => (
            <li key={k}>
              {t(`roles.names.${k}`)}: {held.includes(k) ? t('roles.held') : t('roles.notHeld')}
            </li>
          ))}
        </ul>
        {caller.roles ? (
          <Toolbar aria-label={t('roles.actions')}>
            <Button onPress={() => setDraft(held)}>{t('actions.edit')}</Button>
          </Toolbar>
        ) : (
          <p className={css.muted}>{t('roles.readOnly')}</p>
        )}
      </section>
    );
  }
  return (
    <section className={css.stack} aria-label={t('tabs.roles')}>
      <fieldset className={css.fieldset}>
        <legend className={css.legend}>{t('roles.legend')}</legend>
        {ROLE_KEYS.map((k) => (
          <ChoiceBox key={k} label={t(`roles.names.${k}`)} isSelected={draft.includes(k)} onChange={(on) => click(k, on)} />
        ))}
      </fieldset>
      <div aria-live="polite" data-testid="roles-cleared">
        {cleared.length > 0 && <Message kind="info">{cleared.join(' ')}</Message>}
      </div>
      <Toolbar aria-label={t('roles.actions')}>
        <Button variant="primary" onPress={save} isPending={saving}>
          {t('actions.save')}
        </Button>
        <Button onPress={cancel}>{t('actions.cancel')}</Button>
      </Toolbar>
    </section>
  );
}
