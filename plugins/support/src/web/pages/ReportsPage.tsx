import { layoutCss, showToast, useApi } from '@portal/web';
import { Button, saveBlob } from '@portal/web/kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SupportApi } from '../../contract';
import * as css from '../components/support.css';

const REPORTS = [
  { id: 'registration', endpoint: SupportApi.registrationReport },
  { id: 'user', endpoint: SupportApi.userReport },
] as const;

/** /support-reports: the registration and user reports as PDF or Excel, streamed by the server. */
export default function ReportsPage() {
  const api = useApi();
  const { t } = useTranslation('support');
  const [busy, setBusy] = useState<string | null>(null);
  const generate = async (report: (typeof REPORTS)[number], format: 'pdf' | 'excel') => {
    setBusy(`${report.id}-${format}`);
    try {
      const { blob, fileName } = await api.call(report.endpoint, { params: { format } });
      saveBlob(blob, fileName);
      showToast({ kind: 'success', message: t('reports.generated') });
    } catch {
      // the client showed the server's message
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className={`${layoutCss.card} ${css.stack}`}>
      <p>{t('reports.intro')}</p>
      {REPORTS.map((r) => (
        <section key={r.id} className={css.stack} aria-labelledby={`report-${r.id}`}>
          <h2 id={`report-${r.id}`}>{t(`reports.${r.id}`)}</h2>
          <div className={css.row}>
            {(['pdf', 'excel'] as const).map((format) => (
              <Button
                key={format}
                aria-label={`${t(`reports.${r.id}`)} ${t(`reports.${format}`)}`}
                isPending={busy === `${r.id}-${format}`}
                pendingLabel={t('actions.working')}
                onPress={() => void generate(r, format)}
              >
                {t(`reports.${format}`)}
              </Button>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
