import { type ReactNode, useRef } from 'react';
import { edgeAttributes, useSideways } from './sidewaysScroll';
import * as edges from './sidewaysScroll.css';
import * as css from './TableScroll.css';

export interface TableScrollProps {
  /** What the table is, for the scrolling region's name (its caption or heading text). */
  label: string;
  children: ReactNode;
  className?: string;
  'data-testid'?: string;
}

/**
 * The frame of a plain table (a list of cards, documents, statements) on a narrow screen: a table wider than the
 * screen scrolls sideways inside it, and the page around it keeps the screen's width (WCAG 1.4.10 Reflow: a data
 * table may scroll in two dimensions, the page may not). While the table is wider than the frame, the frame is a
 * named region in the tab order, so it can be scrolled from the keyboard (axe's scrollable-region-focusable), and an
 * edge past which columns are hidden is shaded, so the eye sees the table goes on; otherwise it is a plain box.
 */
export function TableScroll({ label, children, className, 'data-testid': testId }: TableScrollProps) {
  const ref = useRef<HTMLDivElement>(null);
  const sideways = useSideways(ref);
  return (
    <div className={className ? `${edges.edges} ${className}` : edges.edges} {...edgeAttributes(sideways)}>
      <div ref={ref} className={css.frame} data-testid={testId} {...(sideways.overflows ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {})}>
        {children}
      </div>
    </div>
  );
}
