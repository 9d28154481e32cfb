import { useApi } from '@portal/web';
import { Button, Message, Toolbar } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UsersApi } from '../../contract';
import { ChoiceBox } from './ChoiceBox';
import { useCaller } from './useCaller';
import * as css from './users.css';

/** Permissions: view, then edit with a checkbox per permission; cancel restores. */
export function PermissionsTab({ userId }: { userId: string }) {
  const { t } = useTranslation('users');
  const api = useApi();
  const queryClient = useQueryClient();
  const caller = useCaller();
  const permissions = useQuery({ queryKey: ['users', userId, 'permissions'], queryFn: () => api.call(UsersApi.permissionGet, { params: { userId } }) });
  const [draft, setDraft] = useState<number[] | null>(null);
  const [saving, setSaving] = useState(false);

  if (permissions.isPending) return <p aria-busy="true">{t('loading')}</p>;
  if (permissions.isError) return <Message kind="error">{t('detail.loadError')}</Message>;
  const list = permissions.data.Models;
  const held = list.filter((p) => p.IsSelected).map((p) => p.Id);
  const save = async () => {
    if (!draft) return;
    setSaving(true);
    try {
      await api.call(UsersApi.permissionSave, { body: { Id: userId, Version: permissions.data.Version, Models: draft } });
      await queryClient.invalidateQueries({ queryKey: ['users', userId] });
      setDraft(null);
    } catch {
      // Shown as a toast by the client.
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
              {t(`permissions.names.${p.Key}`)}: {p.IsSelected ? t('roles.held') : t('roles.notHeld')}
            </li>
          ))}
        </ul>
        {caller.permissions ? (
          <Toolbar aria-label={t('permissions.actions')}>
            <Button onPress={() => setDraft(held)}>{t('actions.edit')}</Button>
          </Toolbar>
        ) : (
          <p className={css.muted}>{t('permissions.readOnly')}</p>
        )}
      </section>
    );
  }
  return (
    <section className={css.stack} aria-label={t('tabs.permissions')}>
      <fieldset className={css.fieldset}>
        <legend className={css.legend}>{t('permissions.legend')}</legend>
        {list.map((p) => (
          <ChoiceBox
            key={p.Id}
            label={t(`permissions.names.${p.Key}`)}
            isSelected={draft.includes(p.Id)}
            onChange={(on) => setDraft(on ? [...draft, p.Id] : draft.filter((id) => id !== p.Id))}
          />
        ))}
      </fieldset>
      <Toolbar aria-label={t('permissions.actions')}>
        <Button variant="primary" onPress={save} isPending={saving}>
          {t('actions.save')}
        </Button>
        <Button onPress={() => setDraft(null)}>{t('actions.cancel')}</Button>
      </Toolbar>
    </section>
  );
}
