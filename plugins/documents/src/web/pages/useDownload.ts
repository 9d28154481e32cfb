import type { Download } from '@portal/web';
import { useApi } from '@portal/web';
import { saveBlob } from '@portal/web/kit';
import { useState } from 'react';

/** Runs a file call, saves what it answers, and keeps which item is downloading and whether the last one failed. */
export function useDownload() {
  const api = useApi();
  const [busy, setBusy] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const run = async (id: number, call: (a: typeof api) => Promise<Download>) => {
    setBusy(id);
    setFailed(false);
    try {
      const file = await call(api);
      saveBlob(file.blob, file.fileName);
    } catch {
      setFailed(true);
    } finally {
      setBusy(null);
    }
  };
  return { busy, failed, run };
}
