import { seriesViewer } from '@portal/core';
import { Extensions, lazyContribution, PartBoundary, useActingMemberId, useContributions, useNamespaces, useRoles } from '@portal/web';
import { Message } from '@portal/web/kit';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import * as css from '../components/dashboard.css';
import { memberDataParts, withoutOverlaps } from '../components/groups';
import { BusySkeleton } from '../components/WidgetSkeleton';

type Group = ReturnType<typeof useContributions<ComponentType, { title: string; height: number }>>[number];

/**
 * A group's region is named by its title for whose figures it holds (seriesViewer: every member's, the user's own, or
 * the member staff act for): a title key may have `_own` and `_member` forms ('Your bills', 'Bills of member 42');
 * one without them reads the same for everyone.
 */
function TrendGroup({ group, titleReady, viewer }: { group: Group; titleReady: boolean; viewer: ReturnType<typeof seriesViewer> }) {
  const { t } = useTranslation();
  const Component = lazyContribution<object>(group as never);
  return (
    <section
      className={css.trendGroup}
      aria-label={titleReady ? t(group.title, viewer) : undefined}
      data-trend-group={group.id}
      style={{ minHeight: group.height }}
    >
      <PartBoundary
        fallback={
          <div style={{ height: group.height }}>
            <BusySkeleton lines={8} />
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
  const roles = useRoles();
  const acting = useActingMemberId();
  const { parts: groups, askForMember } = memberDataParts(withoutOverlaps(useContributions(Extensions.trendCharts)), acting, roles);
  const titlesReady = useNamespaces(groups.map((g) => g.pluginId));
  const viewer = seriesViewer(roles, acting);
  const hint = askForMember && (
    <p role="status" data-testid="trends-choose-member">
      {t('trend.chooseMember')}
    </p>
  );
  if (groups.length === 0) return hint ? <div className={css.trendPage}>{hint}</div> : <Message kind="info">{t('trend.noCharts')}</Message>;
  return (
    <div className={css.trendPage} data-testid="trend">
      {hint}
      {groups.map((g) => (
        <TrendGroup key={g.id} group={g} titleReady={titlesReady} viewer={viewer} />
      ))}
    </div>
  );
}
