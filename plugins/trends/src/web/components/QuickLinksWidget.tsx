import { decideAccess } from '@portal/core';
import { useKernel, useRoles } from '@portal/web';
import { ensurePluginNamespace } from '@portal/web/i18n';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { QUICK_LINKS } from '../../access';
import * as css from './dashboard.css';

/**
 * Links to the pages people open most, among those this brand has and this user may open. Until the pages' strings
 * load, a link holds a non-breaking space (its line keeps its height), never its route path.
 */
export default function QuickLinksWidget() {
  const { plugins } = useKernel();
  const roles = useRoles();
  const { t } = useTranslation();
  const links = QUICK_LINKS.flatMap((path) => {
    for (const p of plugins) {
      const r = p.routes.find((route) => route.path === path);
      if (r && decideAccess(r.access, roles) === 'allow') return [{ path, label: r.nav?.label ?? r.title, pluginId: p.id }];
    }
    return [];
  });
  const key = links.map((l) => l.pluginId).join(',');
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    Promise.all([...new Set(key.split(',').filter(Boolean))].map((id) => ensurePluginNamespace(id)))
      .catch(() => undefined)
      .then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [key]);
  return (
    <ul className={css.list} data-testid="quick-links" aria-busy={!ready}>
      {links.map((l) => (
        <li key={l.path}>
          <Link to={l.path}>{ready ? t(l.label) : '\u00a0'}</Link>
        </li>
      ))}
    </ul>
  );
}
