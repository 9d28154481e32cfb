import { useApi, useSwapFocus } from '@portal/web';
import { Button, Message, Toolbar } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type User, UsersApi } from '../../contract';
import { type PermissionKey, UNUSED_PERMISSIONS } from '../../rules';
import { ChoiceBox } from './ChoiceBox';
import { StaleWarning } from './StaleWarning';
import { isStaleSave, type TabDraftHandle } from './tabDrafts';
import { refusalNote, useChangeRefusals } from './useCaller';
import * as css from './users.css';

/**
 * Permissions: view, then edit with a checkbox per permission; cancel restores. The edit lives on the user page
 * (`draft`), so switching tabs keeps it; it saves against the Version it was opened with.
 */
export function PermissionsTab({ user, draft: store }: { user: User; draft: TabDraftHandle<'permissions'> }) {
  const userId = user.Id;
  const { t } = useTranslation('users');
  const api = useApi();
  const queryClient = useQueryClient();
  const refused = useChangeRefusals(user).permissions;
  const permissions = useQuery({
    queryKey: ['users', userId, 'permissions'],
    queryFn: () => api.call(UsersApi.permissionGet, { params: { userId } }, { notify: false }),
  });
  const draft = store.draft?.value ?? null;
  const [saving, setSaving] = useState(false);
  // Edit puts focus on the first box; a save that went through, or Cancel, back on Edit. A tab opened again with its
  // edit kept moves nothing (only a wish made by pressing moves focus).
  const focus = useSwapFocus(draft ? 'form' : 'view', { ready: !permissions.isPending });

  if (permissions.isPending) return <p aria-busy="true">{t('loading')}</p>;
  if (permissions.isError) return <Message kind="error">{t('detail.loadError')}</Message>;
  const list = permissions.data.Models;
  const heldOf = (models: typeof list) => models.filter((p) => p.IsSelected).map((p) => p.Id);
  const reload = async () => {
    const fresh = await api.call(UsersApi.permissionGet, { params: { userId } });
    await queryClient.invalidateQueries({ queryKey: ['users', userId] });
    store.start(heldOf(fresh.Models), fresh.Version);
  };
  const held = heldOf(list);
  // A permission with nothing to gate in this product says so ("not used") rather than pretending.
  const nameOf = (key: string) => {
    const name = t(`permissions.names.${key}`);
    return UNUSED_PERMISSIONS.includes(key as PermissionKey) ? t('permissions.notUsed', { name }) : name;
  };
  const startEditing = () => {
    focus.want('form');
    store.start(held, permissions.data.Version);
  };
  const cancel = () => {
    focus.want('view');
    store.drop();
  };
  const save = async () => {
    if (!draft || !store.draft) return;
    const pressed = document.activeElement;
    setSaving(true);
    try {
      const from = store.draft.version;
      const answer = await api.call(UsersApi.permissionSave, { body: { Id: userId, Version: from, Models: draft } });
      await queryClient.invalidateQueries({ queryKey: ['users', userId] });
      focus.want('view', pressed);
      store.saved(from, answer.Version);
    } catch (e) {
      // Shown as a toast by the client; the boxes stay, and a stale save offers a reload.
      if (isStaleSave(e)) store.stale();
    } finally {
      setSaving(false);
    }
  };
  if (!draft) {
    return (
      <section className={css.stack} aria-label={t('tabs.permissions')}>
        <ul>
          {list.map((p) => (
            <li key={p.Id}>
              {nameOf(p.Key)}: {p.IsSelected ? t('roles.held') : t('roles.notHeld')}
            </li>
          ))}
        </ul>
        <p className={css.muted}>{t('permissions.note')}</p>
        {refused === null ? (
          <Toolbar aria-label={t('permissions.actions')}>
            <Button ref={focus.editRef} onPress={startEditing}>
              {t('actions.edit')}
            </Button>
          </Toolbar>
        ) : (
          <p className={css.muted}>{refusalNote(t, refused, t('permissions.readOnly'))}</p>
        )}
      </section>
    );
  }
  return (
    <section className={css.stack} aria-label={t('tabs.permissions')}>
      {store.draft?.stale && <StaleWarning onReload={reload} />}
      <div ref={focus.fieldsRef} style={{ display: 'contents' }}>
        <fieldset className={css.fieldset}>
          <legend className={css.legend}>{t('permissions.legend')}</legend>
          {list.map((p) => (
            <ChoiceBox
              key={p.Id}
              label={nameOf(p.Key)}
              isSelected={draft.includes(p.Id)}
              onChange={(on) => store.edit((ids) => (on ? [...ids, p.Id] : ids.filter((id) => id !== p.Id)))}
            />
          ))}
        </fieldset>
        <p className={css.muted}>{t('permissions.note')}</p>
      </div>
      <Toolbar aria-label={t('permissions.actions')}>
        <Button variant="primary" onPress={save} isPending={saving}>
          {t('actions.save')}
        </Button>
        <Button onPress={cancel}>{t('actions.cancel')}</Button>
      </Toolbar>
    </section>
  );
}
