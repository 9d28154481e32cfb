import type { ReactNode } from 'react';
import { Toolbar as AriaToolbar, Separator } from 'react-aria-components';
import * as css from './Toolbar.css';

export interface ToolbarProps {
  /** A toolbar needs a name when the page has more than one; give aria-label or aria-labelledby. */
  'aria-label'?: string;
  'aria-labelledby'?: string;
  orientation?: 'horizontal' | 'vertical';
  children: ReactNode;
  className?: string;
}

/** A group of actions that is one tab stop; arrow keys move between its buttons. */
export function Toolbar({ orientation = 'horizontal', children, className, ...label }: ToolbarProps) {
  return (
    <AriaToolbar
      aria-label={label['aria-label']}
      aria-labelledby={label['aria-labelledby']}
      orientation={orientation}
      className={className ? `${css.toolbar} ${className}` : css.toolbar}
    >
      {children}
    </AriaToolbar>
  );
}

/** A line between groups of a toolbar's buttons; it runs across the toolbar's direction. */
export function ToolbarSeparator({ orientation = 'horizontal' }: { orientation?: 'horizontal' | 'vertical' }) {
  const line = orientation === 'horizontal' ? 'vertical' : 'horizontal';
  return <Separator orientation={line} className={css.separator[line]} />;
}
