import { type ReactNode, useId } from 'react';
import * as css from './Panel.css';

export interface PanelProps {
  /** The panel's heading; it also names the region. */
  title: ReactNode;
  /** 2 by default; 1 when the panel is the page's main content. */
  headingLevel?: 1 | 2 | 3 | 4 | 5 | 6;
  /** Muted text under the title. */
  description?: ReactNode;
  /** Buttons or links at the end of the header, e.g. a Toolbar. */
  actions?: ReactNode;
  /** A band in the brand colour above the title (the brand name on pages outside the signed-in layout). */
  banner?: ReactNode;
  /** A shadow lifts the panel off the page (a panel on its own, not one of several). */
  elevated?: boolean;
  children?: ReactNode;
  className?: string;
  id?: string;
}

/** A titled section: a region landmark named by its heading. */
export function Panel({ title, headingLevel = 2, description, actions, banner, elevated = false, children, className, id }: PanelProps) {
  const headingId = useId();
  const Heading = `h${headingLevel}` as const;
  const classes = [css.panel, elevated ? css.elevated : undefined, className].filter(Boolean).join(' ');
  return (
    <section id={id} className={classes} aria-labelledby={headingId}>
      {banner && <p className={css.banner}>{banner}</p>}
      <div className={css.content}>
        <div className={css.header}>
          <div className={css.headings}>
            <Heading id={headingId} className={headingLevel === 1 ? `${css.title} ${css.pageTitle}` : css.title}>
              {title}
            </Heading>
            {description && <p className={css.description}>{description}</p>}
          </div>
          {actions && <div className={css.actions}>{actions}</div>}
        </div>
        {children}
      </div>
    </section>
  );
}
