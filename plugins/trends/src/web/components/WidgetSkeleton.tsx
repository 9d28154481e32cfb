import * as css from './dashboard.css';

/** Grey lines in a widget's frame while its code or data loads; hidden from assistive technology (the frame is aria-busy). */
export function WidgetSkeleton({ lines = 4 }: { lines?: number }) {
  return (
    <div className={css.skeleton} aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className={css.skeletonLine} style={{ width: `${90 - i * 12}%` }} />
      ))}
    </div>
  );
}
