import { useLayoutEffect, useRef } from 'react';
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

/**
 * The skeleton, marking the region around it (the widget's frame, a trend group: the closest `section`) aria-busy
 * while it shows: a screen reader then knows the titled region is still loading rather than empty. Written on the
 * element, not through the frame's state: the frame does not render again when its widget arrives. The region is found
 * from the skeleton's own element: in the commit that mounts both, a layout effect runs before its parents' refs are
 * set.
 */
export function BusySkeleton({ lines }: { lines?: number }) {
  const own = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const region = own.current?.closest('section');
    region?.setAttribute('aria-busy', 'true');
    return () => region?.removeAttribute('aria-busy');
  }, []);
  return (
    <div ref={own}>
      <WidgetSkeleton lines={lines} />
    </div>
  );
}
