import { useEffect, useState } from 'react';
import { ensurePluginNamespace } from './index';

/** Loads the strings of the given plugins (contributions drawn by another plugin's page); true once all are in. Until then, draw a placeholder of the same height rather than raw keys. */
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
