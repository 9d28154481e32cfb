import { useBrand } from '@portal/web';
import type { ReactNode } from 'react';
import * as css from './account.css';

/** The bare pages the e-mailed links open: the brand's header and one panel, like the login screen. */
export function LinkFrame({ title, children }: { title: string; children: ReactNode }) {
  const brand = useBrand();
  return (
    <div className={css.page}>
      <main id="main" className={css.panel}>
        <div className={css.panelHeader}>
          <p className={css.brandName}>{brand.displayName}</p>
        </div>
        <div className={css.panelBody}>
          <h1 className={css.heading}>{title}</h1>
          {children}
        </div>
      </main>
    </div>
  );
}
