import { Extensions, lazyContribution, PartBoundary, useContributions, useNamespaces } from '@portal/web';
import { type TabItem, Tabs } from '@portal/web/kit';
import { useTranslation } from 'react-i18next';

/**
 * The member tabs other plugins contribute (Extensions.memberTabs), each owned by the plugin with the data:
 * details-profile, details-addresses, details-transactions, details-subscription, details-contacts, details-card.
 * The contribution id is the tab id; the strip shows once every contributing plugin's strings are in, so a label
 * is never drawn as its raw key.
 */
export function MemberTabs({ memberId }: { memberId: number }) {
  const { t } = useTranslation('users');
  const tabs = useContributions(Extensions.memberTabs);
  const ready = useNamespaces(tabs.map((c) => c.pluginId));
  if (tabs.length === 0) return null;
  if (!ready) return <p aria-busy="true">{t('loading')}</p>;
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
  return <Tabs aria-label={t('detail.memberTabs')} items={items} defaultSelectedKey={tabs[0]?.id} />;
}
