import { useBrand } from '@portal/web';
import { Panel } from '@portal/web/kit';
import type { ReactNode } from 'react';
import * as css from './account.css';

/** The bare pages the e-mailed links open: one panel under the brand's name, like the login screen. */
export function LinkFrame({ title, children }: { title: string; children: ReactNode }) {
  const brand = useBrand();
  return (
    <div className={css.page}>
      <main id="main" className={css.frame}>
        <Panel title={title} headingLevel={1} banner={brand.displayName} elevated>
          {children}
        </Panel>
      </main>
    </div>
  );
}
