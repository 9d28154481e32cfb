import { Extensions, keepPageState, lazyContribution, PartBoundary, useConfirmLeave, useContributions, useNamespaces } from '@portal/web';
import { type TabItem, Tabs, UnsavedContext, useUnsavedScope } from '@portal/web/kit';
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
 * A tab change drops the panel shown (its form with it) and nothing else of the page: it asks first only when that
 * panel holds unsaved changes (useUnsavedScope), not for another part of the page, which stays.
 */
export function MemberTabs({ memberId }: { memberId: number }) {
  const { t } = useTranslation('users');
  const { id = '', tab } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const tabs = useContributions(Extensions.memberTabs);
  const panel = useUnsavedScope();
  const confirmLeave = useConfirmLeave();
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
        <UnsavedContext.Provider value={panel.registry}>
          <PartBoundary fallback={<p aria-busy="true">{t('loading')}</p>}>
            <Component memberId={memberId} />
          </PartBoundary>
        </UnsavedContext.Provider>
      ),
    };
  });
  return (
    <Tabs
      aria-label={t('detail.memberTabs')}
      items={items}
      selectedKey={selected}
      onSelectionChange={(key) => {
        if (key === selected) return;
        const go = () => navigate(memberTabPath(id, key), { replace: true, preventScrollReset: true, state: keepPageState(location.state) });
        // At once when the panel holds nothing unsaved: the strip is controlled by the address, and a change left for
        // later lets react-aria move focus back to the tab still selected, which selects it again (a second change).
        if (!panel.unsaved()) go();
        else
          void confirmLeave(panel.unsaved).then((leave) => {
            if (leave) go();
          });
      }}
    />
  );
}
