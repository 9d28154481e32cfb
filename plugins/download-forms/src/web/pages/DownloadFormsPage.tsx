import { layoutCss, useApi } from '@portal/web';
import { Button, Message, saveBlob } from '@portal/web/kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { DOWNLOAD_FORMS_ROUTES, FORMS } from '../../access';
import { DownloadFormsApi } from '../../contract';
import * as css from './DownloadFormsPage.css';

/** /downloadforms, /downloadforms/amethyst, /downloadforms/careassist: the variant's two letters, filled in for the member. */
export default function DownloadFormsPage() {
  const api = useApi();
  const { t } = useTranslation('download-forms');
  const { pathname } = useLocation();
  const variant = DOWNLOAD_FORMS_ROUTES.find((r) => r.path === pathname.replace(/\/+$/, '').toLowerCase())?.variant ?? 'finance';
  const [busy, setBusy] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const download = async (id: number) => {
    setBusy(id);
    setFailed(false);
    try {
      const file = await api.call(DownloadFormsApi.getByID, { query: { id } });
      saveBlob(file.blob, file.fileName);
    } catch {
      setFailed(true);
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className={layoutCss.card}>
      <p>{t('intro')}</p>
      {failed && <Message kind="error">{t('error')}</Message>}
      <ul className={css.list} data-testid="download-forms">
        {FORMS.filter((f) => f.variant === variant).map((f) => (
          <li key={f.id} className={css.item}>
            <div>
              <strong>{t(`forms.${f.id}.title`)}</strong>
              <p className={css.text}>{t(`forms.${f.id}.text`)}</p>
            </div>
            <Button
              isPending={busy === f.id}
              pendingLabel={t('downloading')}
              aria-label={t('downloadNamed', { name: t(`forms.${f.id}.title`) })}
              onPress={() => download(f.id)}
            >
              {t('download')}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
