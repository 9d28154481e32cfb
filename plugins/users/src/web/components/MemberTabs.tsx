import { Extensions, lazyContribution, PartBoundary, useContributions, useNamespaces } from '@portal/web';
import { type TabItem, Tabs } from '@portal/web/kit';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { memberTabPath, selectedMemberTab } from '../memberTabPaths';

/**
 * The member tabs other plugins contribute (Extensions.memberTabs), each owned by the plugin with the data:
 * details-profile, details-addresses, details-transactions, details-subscription, details-contacts, details-card.
 * The contribution id is the tab id and its address: /users/:id/<id> (USER_DETAIL_TAB_PATH) selects it, /users/:id
 * or an unknown segment the first tab. Choosing a tab replaces the address rather than adding a history entry, so
 * Back leaves the member (arrow keys select as they move, and would otherwise leave one entry per tab passed); the
 * entry's state (the page's way back, cameFrom) goes with it.
 * The strip shows once every contributing plugin's strings are in, so a label is never drawn as its raw key.
 */
export function MemberTabs({ memberId }: { memberId: number }) {
  const { t } = useTranslation('users');
  const { id = '', tab } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const tabs = useContributions(Extensions.memberTabs);
  const ready = useNamespaces(tabs.map((c) => c.pluginId));
  if (tabs.length === 0) return null;
  if (!ready) return <p aria-busy="true">{t('loading')}</p>;
  const selected = selectedMemberTab(
    tabs.map((c) => c.id),
    tab,
  );
  const items: TabItem[] = tabs.map((c) => {
    const Component = lazyContribution<{ memberId: number }>(c as never);
    return {
      id: c.id,
      label: t(c.title),
      content: (
        <PartBoundary fallback={<p aria-busy="true">{t('loading')}</p>}>
          <Component memberId={memberId} />
        </PartBoundary>
      ),
    };
  });
  return (
    <Tabs
      aria-label={t('detail.memberTabs')}
      items={items}
      selectedKey={selected}
      onSelectionChange={(key) => {
        if (key !== selected) navigate(memberTabPath(id, key), { replace: true, preventScrollReset: true, state: location.state });
      }}
    />
  );
}
