import { Extensions, lazyContribution, PartBoundary, useContributions, useNamespaces } from '@portal/web';
import { type ComponentType, useId, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import * as css from '../components/dashboard.css';
import { useMemberDataParts } from '../components/useMemberDataParts';
import { BusySkeleton } from '../components/WidgetSkeleton';

type Widget = ReturnType<typeof useContributions<ComponentType, { title: string; size?: 'small' | 'wide' }>>[number];

/**
 * A frame body whose content overflows it takes keyboard focus (tabindex 0), so it can be scrolled by keyboard; one
 * that fits is not a tab stop. The attribute is written on the element, not through React state:
 * - when the content changes (a MutationObserver, whose callback runs at the end of the task that committed it), the
 *   body becomes a tab stop at once, so no later task, a keyboard user's or an accessibility checker's, finds it
 *   scrollable and unreachable. Its sizes are not read there: that would force a layout in the middle of the widgets'
 *   rendering (on the cold landing at CPU/4 that cost about 40 ms). They are read in the next frame, just before the
 *   layout that frame does anyway, which takes the tab stop away again if the content fits.
 * - when the body or its content changes size for another reason, such as the window (a ResizeObserver, after layout).
 * A widget whose code and data are in when the page renders comes in the frame's first commit, before the observers
 * exist: the same is done for it when they are set up, before that commit is painted (a layout effect).
 */
function useScrollableFocus() {
  const ref = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    const inner = content.current;
    if (!el || !inner) return;
    let frame = 0;
    const tabStop = (on: boolean) => {
      if (on && el.getAttribute('tabindex') !== '0') el.setAttribute('tabindex', '0');
      else if (!on && el.hasAttribute('tabindex')) el.removeAttribute('tabindex');
    };
    const check = () => {
      frame = 0;
      tabStop(el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
    };
    const resize = new ResizeObserver(check);
    resize.observe(el);
    resize.observe(inner);
    const changed = () => {
      tabStop(true);
      if (!frame) frame = requestAnimationFrame(check);
    };
    const changes = new MutationObserver(changed);
    changes.observe(inner, { childList: true, subtree: true, characterData: true });
    if (inner.hasChildNodes()) changed();
    return () => {
      resize.disconnect();
      changes.disconnect();
      cancelAnimationFrame(frame);
    };
  }, []);
  return { ref, content };
}

function Frame({ widget, titlesReady }: { widget: Widget; titlesReady: boolean }) {
  const { t } = useTranslation();
  const titleId = useId();
  const Component = lazyContribution<object>(widget as never);
  const body = useScrollableFocus();
  return (
    <section className={widget.size === 'wide' ? `${css.frame} ${css.wide}` : css.frame} aria-labelledby={titleId} data-widget={widget.id}>
      <h2 id={titleId} className={css.frameTitle}>
        {titlesReady ? t(widget.title) : '\u00a0'}
      </h2>
      <div ref={body.ref} className={css.frameBody}>
        <div ref={body.content}>
          {/* The frame is aria-busy while the widget's code loads (BusySkeleton); a widget waiting for its data says so itself. */}
          <PartBoundary fallback={<BusySkeleton />}>
            <Component />
          </PartBoundary>
        </div>
      </div>
    </section>
  );
}

/**
 * /dashboard: the widgets other plugins contribute (Extensions.dashboardWidgets) that this user's roles may see, in
 * their order; acting for nobody, staff see one hint to choose a member instead of the widgets of one member's data.
 * Each sits in a frame of fixed size drawn with the page, so the page never shifts as widgets load.
 */
export default function DashboardPage() {
  const { t } = useTranslation('trends');
  const { parts: widgets, askForMember } = useMemberDataParts(useContributions(Extensions.dashboardWidgets));
  const titlesReady = useNamespaces(widgets.map((w) => w.pluginId));
  const hint = askForMember && (
    <p role="status" className={css.dashboardHint} data-testid="dashboard-choose-member">
      {t('dashboard.chooseMember')}
    </p>
  );
  if (widgets.length === 0) return hint || <p>{t('dashboard.empty')}</p>;
  return (
    <div className={css.grid} data-testid="dashboard">
      {hint}
      {widgets.map((w) => (
        <Frame key={w.id} widget={w} titlesReady={titlesReady} />
      ))}
    </div>
  );
}
