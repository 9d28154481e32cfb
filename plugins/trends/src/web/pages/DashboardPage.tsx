import { Extensions, lazyContribution, PartBoundary, useContributions, useNamespaces } from '@portal/web';
import { type ComponentType, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as css from '../components/dashboard.css';
import { WidgetSkeleton } from '../components/WidgetSkeleton';

type Widget = ReturnType<typeof useContributions<ComponentType, { title: string; size?: 'small' | 'wide' }>>[number];

/**
 * Whether the frame body's content overflows it: a scrolling frame body then takes keyboard focus, so it can be
 * scrolled by keyboard. Measured when the body or its content changes size (ResizeObserver, after layout), never on
 * each DOM change: reading the sizes then would force a layout for every mutation while the widgets render.
 */
function useOverflows() {
  const ref = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = ref.current;
    const inner = content.current;
    if (!el || !inner) return;
    const resize = new ResizeObserver(() => setOverflows(el.scrollHeight > el.clientHeight + 1));
    resize.observe(el);
    resize.observe(inner);
    return () => resize.disconnect();
  }, []);
  return { ref, content, overflows };
}

function Frame({ widget, titlesReady }: { widget: Widget; titlesReady: boolean }) {
  const { t } = useTranslation();
  const titleId = useId();
  const Component = lazyContribution(widget as never) as unknown as ComponentType;
  const body = useOverflows();
  return (
    <section className={widget.size === 'wide' ? `${css.frame} ${css.wide}` : css.frame} aria-labelledby={titleId} data-widget={widget.id}>
      <h2 id={titleId} className={css.frameTitle}>
        {titlesReady ? t(widget.title) : '\u00a0'}
      </h2>
      <div ref={body.ref} className={css.frameBody} tabIndex={body.overflows ? 0 : undefined}>
        <div ref={body.content}>
          <PartBoundary fallback={<WidgetSkeleton />}>
            <Component />
          </PartBoundary>
        </div>
      </div>
    </section>
  );
}

/**
 * /dashboard: the widgets other plugins contribute (Extensions.dashboardWidgets) that this user's roles may see, in
 * their order. Each sits in a frame of fixed size drawn with the page, so the page never shifts as widgets load.
 */
export default function DashboardPage() {
  const { t } = useTranslation('trends');
  const widgets = useContributions(Extensions.dashboardWidgets);
  const titlesReady = useNamespaces(widgets.map((w) => w.pluginId));
  if (widgets.length === 0) return <p>{t('dashboard.empty')}</p>;
  return (
    <div className={css.grid} data-testid="dashboard">
      {widgets.map((w) => (
        <Frame key={w.id} widget={w} titlesReady={titlesReady} />
      ))}
    </div>
  );
}
