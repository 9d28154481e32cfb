import { ensurePluginNamespace } from '@portal/web/i18n';
import { useEffect, useState } from 'react';

/** Loads the strings of the plugins whose widgets show, so every frame's title can be drawn (until then: a blank line of the same height). */
export function useNamespaces(pluginIds: readonly string[]): boolean {
  const key = [...new Set(pluginIds)].sort().join(',');
  const [ready, setReady] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all(key ? key.split(',').map((id) => ensurePluginNamespace(id)) : [])
      .catch(() => undefined)
      .then(() => live && setReady(key));
    return () => {
      live = false;
    };
  }, [key]);
  return ready === key;
}
