import { layoutCss, readCameFrom, useApi } from '@portal/web';
import { Message, type TabItem, Tabs, useUnsavedChanges } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router-dom';
import { USERS_PATH } from '../../access';
import { UsersApi } from '../../contract';
import { DetailsTab } from '../components/DetailsTab';
import { MemberTabs } from '../components/MemberTabs';
import { PermissionsTab } from '../components/PermissionsTab';
import { QuotasTab } from '../components/QuotasTab';
import { RolesTab } from '../components/RolesTab';
import { TeamsTab } from '../components/TeamsTab';
import { unsavedDrafts, useTabDrafts } from '../components/tabDrafts';
import * as css from '../components/users.css';

/**
 * /users/:id (and /users/new): a staff login's administration tabs (details, quotas, roles, teams,
 * permissions). A member's login shows its details and the member tabs the support screens contribute, each at its
 * own address (/users/:id/details-profile ..., see MemberTabs); the staff tabs have none (the spec names none).
 * The tabs render only the selected panel, so each tab's unsaved edit lives here (useTabDrafts), not in the tab:
 * switching tabs and back finds it as it was left. The back link returns to the list the page was opened from, as it
 * was (cameFrom: its address with filters and page), or to /users.
 */
export default function UserDetailPage() {
  const { id = 'new' } = useParams();
  const api = useApi();
  const { t } = useTranslation('users');
  const isNew = id === 'new';
  const user = useQuery({ queryKey: ['users', id, 'user'], queryFn: () => api.call(UsersApi.getById, { params: { id } }, { notify: false }), enabled: !isNew });
  const drafts = useTabDrafts(id);
  // The tabs' edits live here, not in a form on screen (another tab's is not drawn, and Roles and Permissions are
  // boxes, not a kit Form): leaving the page with one changed asks first (kit/form/unsaved).
  const open = drafts.drafts;
  useUnsavedChanges(useCallback(() => unsavedDrafts(open), [open]));
  // The list this page was opened from (support's members, the user list with its filters), else the user list.
  const cameFrom = readCameFrom(useLocation().state);

  const back = (
    <Link className={css.link} to={cameFrom?.path ?? USERS_PATH}>
      {cameFrom ? t(cameFrom.label as 'detail.back') : t('detail.back')}
    </Link>
  );
  if (isNew) {
    return (
      <div className={`${layoutCss.card} ${css.stack}`}>
        {back}
        <DetailsTab user={null} draft={drafts.handle('details')} />
      </div>
    );
  }
  if (user.isPending) return <p aria-busy="true">{t('loading')}</p>;
  if (user.isError || !user.data) {
    return (
      <div className={`${layoutCss.card} ${css.stack}`}>
        {back}
        <Message kind="error">{t('detail.loadError')}</Message>
      </div>
    );
  }
  const u = user.data;
  const items: TabItem[] = [{ id: 'details', label: t('tabs.details'), content: <DetailsTab user={u} draft={drafts.handle('details')} /> }];
  if (!u.IsMember) {
    items.push(
      { id: 'quotas', label: t('tabs.quotas'), content: <QuotasTab user={u} draft={drafts.handle('quotas')} /> },
      { id: 'roles', label: t('tabs.roles'), content: <RolesTab user={u} draft={drafts.handle('roles')} /> },
      { id: 'teams', label: t('tabs.teams'), content: <TeamsTab user={u} onSaved={drafts.saved} /> },
      { id: 'permissions', label: t('tabs.permissions'), content: <PermissionsTab user={u} draft={drafts.handle('permissions')} /> },
    );
  }
  return (
    <div className={`${layoutCss.card} ${css.stack}`}>
      {back}
      <h2>{t('detail.heading', { name: `${u.FirstName} ${u.LastName}`.trim() || u.UserName })}</h2>
      <Tabs aria-label={t('tabs.label')} items={items} defaultSelectedKey="details" />
      {u.MemberId !== null && (
        <>
          <Message kind="info">{t('detail.memberNote')}</Message>
          <MemberTabs memberId={u.MemberId} />
        </>
      )}
    </div>
  );
}
