import { Extensions, lazyContribution, PartBoundary, useContributions, useNamespaces } from '@portal/web';
import { Message } from '@portal/web/kit';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import * as css from '../components/dashboard.css';
import { WidgetSkeleton } from '../components/WidgetSkeleton';

type Group = ReturnType<typeof useContributions<ComponentType, { title: string; height: number }>>[number];

function TrendGroup({ group, titleReady }: { group: Group; titleReady: boolean }) {
  const { t } = useTranslation();
  const Component = lazyContribution<object>(group as never);
  return (
    <section className={css.trendGroup} aria-label={titleReady ? t(group.title) : undefined} data-trend-group={group.id} style={{ minHeight: group.height }}>
      <PartBoundary
        fallback={
          <div aria-busy="true" style={{ height: group.height }}>
            <WidgetSkeleton lines={8} />
          </div>
        }
      >
        <Component />
      </PartBoundary>
    </section>
  );
}

/**
 * /trend: the chart groups other plugins contribute (Extensions.trendCharts) that this user's roles may see: the bill
 * series of this plugin, the transaction, balance and gauge charts of the ledger plugin. Each group reserves its
 * height, so the page does not shift while the groups and the charts library load.
 */
export default function TrendPage() {
  const { t } = useTranslation('trends');
  const groups = useContributions(Extensions.trendCharts);
  const titlesReady = useNamespaces(groups.map((g) => g.pluginId));
  if (groups.length === 0) return <Message kind="info">{t('trend.noCharts')}</Message>;
  return (
    <div className={css.trendPage} data-testid="trend">
      {groups.map((g) => (
        <TrendGroup key={g.id} group={g} titleReady={titlesReady} />
      ))}
    </div>
  );
}
