import { Extensions, lazyContribution, useContributions } from '@portal/web';
import { ensurePluginNamespace } from '@portal/web/i18n';
import { type TabItem, Tabs } from '@portal/web/kit';
import { type ComponentType, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The member tabs other plugins contribute (Extensions.memberTabs), each owned by the plugin with the data:
 * details-profile, details-addresses, details-transactions, details-subscription, details-contacts, details-card.
 * The contribution id is the tab id; its strings load with the tab list so every label can be drawn.
 */
export function MemberTabs({ memberId }: { memberId: number }) {
  const { t } = useTranslation('users');
  const tabs = useContributions(Extensions.memberTabs);
  const key = [...new Set(tabs.map((c) => c.pluginId))].sort().join(',');
  const [ready, setReady] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all(key ? key.split(',').map((id) => ensurePluginNamespace(id)) : [])
      .catch(() => undefined)
      .then(() => live && setReady(key));
    return () => {
      live = false;
    };
  }, [key]);
  if (tabs.length === 0) return null;
  const items: TabItem[] = tabs.map((c) => {
    const Component = lazyContribution(c as never) as unknown as ComponentType<{ memberId: number }>;
    return {
      id: c.id,
      label: ready === key ? t(c.title) : c.id,
      content: (
        <Suspense fallback={<p aria-busy="true">{t('loading')}</p>}>
          <Component memberId={memberId} />
        </Suspense>
      ),
    };
  });
  return <Tabs aria-label={t('detail.memberTabs')} items={items} defaultSelectedKey={tabs[0]?.id} />;
}
