import type { AdminRole } from '@portal/core';
import { useApi, useSwapFocus } from '@portal/web';
import { Button, Message, Toolbar } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type User, UsersApi } from '../../contract';
import { applyRoleClick, EXCLUSIVITY_RULES, isRoleKey, ROLE_CATALOGUE, ROLE_KEYS } from '../../rules';
import { ChoiceBox } from './ChoiceBox';
import { StaleWarning } from './StaleWarning';
import { isStaleSave, type TabDraftHandle } from './tabDrafts';
import { refusalNote, useChangeRefusals } from './useCaller';
import * as css from './users.css';

/** The roles a user holds, from the role tab's answer. */
const heldOf = (models: { Roles: readonly { Key: string; IsSelected: boolean }[] }): AdminRole[] =>
  models.Roles.filter((r) => r.IsSelected)
    .map((r) => r.Key)
    .filter(isRoleKey);

/**
 * Roles: view, then edit with checkboxes that apply the exclusivity rules as they are clicked and say why a box cleared.
 * The edit lives on the user page (`draft`), so switching tabs keeps it; it saves against the Version it was opened with.
 */
export function RolesTab({ user, draft: store }: { user: User; draft: TabDraftHandle<'roles'> }) {
  const userId = user.Id;
  const { t } = useTranslation('users');
  const api = useApi();
  const queryClient = useQueryClient();
  const refused = useChangeRefusals(user).roles;
  const roles = useQuery({ queryKey: ['users', userId, 'roles'], queryFn: () => api.call(UsersApi.roleGet, { params: { userId } }, { notify: false }) });
  const draft = store.draft?.value.roles ?? null;
  const cleared = store.draft?.value.cleared ?? [];
  const [saving, setSaving] = useState(false);
  // Edit puts focus on the first box; a save that went through, or Cancel, back on Edit. A tab opened again with its
  // edit kept moves nothing (only a wish made by pressing moves focus).
  const focus = useSwapFocus(draft ? 'form' : 'view', { ready: !roles.isPending });

  if (roles.isPending) return <p aria-busy="true">{t('loading')}</p>;
  if (roles.isError) return <Message kind="error">{t('detail.loadError')}</Message>;
  const held = heldOf(roles.data.Models);
  const or = (list: readonly string[]) => list.join(` ${t('or')} `);

  const click = (role: AdminRole, selected: boolean) =>
    store.edit((value) => {
      const result = applyRoleClick(value.roles, role, selected);
      const sentences = result.cleared.map((c) => {
        const rule = EXCLUSIVITY_RULES.find((r) => r.role === c.because);
        const allowed = ROLE_KEYS.filter((k) => k !== c.because && !rule?.clears.includes(k));
        return t('roles.cleared', { role: c.role, because: c.because, allowed: or(allowed) });
      });
      return { roles: result.roles, cleared: sentences };
    });
  const startEditing = () => {
    focus.want('form');
    store.start({ roles: held, cleared: [] }, roles.data.Version);
  };
  const cancel = () => {
    focus.want('view');
    store.drop();
  };
  const reload = async () => {
    const fresh = await api.call(UsersApi.roleGet, { params: { userId } });
    await queryClient.invalidateQueries({ queryKey: ['users', userId] });
    store.start({ roles: heldOf(fresh.Models), cleared: [] }, fresh.Version);
  };
  const save = async () => {
    if (!draft || !store.draft) return;
    const pressed = document.activeElement;
    setSaving(true);
    try {
      const ids = ROLE_CATALOGUE.filter((r) => draft.includes(r.Key)).map((r) => r.Id);
      const from = store.draft.version;
      const answer = await api.call(UsersApi.roleSave, { body: { Id: userId, Version: from, Models: { ContactId: roles.data.Models.ContactId, Roles: ids } } });
      await queryClient.invalidateQueries({ queryKey: ['users', userId] });
      focus.want('view', pressed);
      store.saved(from, answer.Version);
    } catch (e) {
      // The server's refusal is shown as a toast; the boxes stay as they are to correct, and a stale save offers a reload.
      if (isStaleSave(e)) store.stale();
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
        {refused === null ? (
          <Toolbar aria-label={t('roles.actions')}>
            <Button ref={focus.editRef} onPress={startEditing}>
              {t('actions.edit')}
            </Button>
          </Toolbar>
        ) : (
          <p className={css.muted}>{refusalNote(t, refused, t('roles.readOnly'))}</p>
        )}
      </section>
    );
  }
  return (
    <section className={css.stack} aria-label={t('tabs.roles')}>
      {store.draft?.stale && <StaleWarning onReload={reload} />}
      <div ref={focus.fieldsRef} style={{ display: 'contents' }}>
        <fieldset className={css.fieldset}>
          <legend className={css.legend}>{t('roles.legend')}</legend>
          {ROLE_KEYS.map((k) => (
            <ChoiceBox key={k} label={t(`roles.names.${k}`)} isSelected={draft.includes(k)} onChange={(on) => click(k, on)} />
          ))}
        </fieldset>
      </div>
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
