import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import * as css from './TableScroll.css';

export interface TableScrollProps {
  /** What the table is, for the scrolling region's name (its caption or heading text). */
  label: string;
  children: ReactNode;
  className?: string;
  'data-testid'?: string;
}

/** Whether a box's content is wider than the box: what makes it a region a keyboard user has to scroll. */
const overflowsSideways = (box: { scrollWidth: number; clientWidth: number }) => box.scrollWidth > box.clientWidth + 1;

/**
 * The frame of a plain table (a list of cards, documents, statements) on a narrow screen: a table wider than the
 * screen scrolls sideways inside it, and the page around it keeps the screen's width (WCAG 1.4.10 Reflow: a data
 * table may scroll in two dimensions, the page may not). While the table is wider than the frame, the frame is a
 * named region in the tab order, so it can be scrolled from the keyboard (axe's scrollable-region-focusable);
 * otherwise it is a plain box.
 */
export function TableScroll({ label, children, className, 'data-testid': testId }: TableScrollProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setOverflows(overflowsSideways(el));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      className={className ? `${css.frame} ${className}` : css.frame}
      data-testid={testId}
      {...(overflows ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {})}
    >
      {children}
    </div>
  );
}
