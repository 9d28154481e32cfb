import { KernelApi } from '@portal/core';
import { layoutCss, useApi, useBrand } from '@portal/web';
import { Button, Message, saveBlob } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { DOWNLOAD_FORMS_ROUTES, FORMS } from '../../access';
import { DownloadFormsApi } from '../../contract';
import * as css from './DownloadFormsPage.css';

/**
 * A refusal the server worded that asking again would not change: no member record (400), an ended membership (409).
 * Its words replace the forms; null for any other failure.
 */
const finalRefusal = (error: unknown): string | null => {
  const status = (error as { status?: unknown } | null)?.status;
  return (status === 400 || status === 409) && error instanceof Error && error.message ? error.message : null;
};

/** /downloadforms, /downloadforms/amethyst, /downloadforms/careassist: the variant's two letters, filled in for the member. */
export default function DownloadFormsPage() {
  const api = useApi();
  const brand = useBrand();
  const { t } = useTranslation('download-forms');
  const { pathname } = useLocation();
  const variant = DOWNLOAD_FORMS_ROUTES.find((r) => r.path === pathname.replace(/\/+$/, '').toLowerCase())?.variant ?? 'finance';
  const [busy, setBusy] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  // Whether the membership has ended (the server refuses the letters then): read on every visit, so the page says so
  // instead of offering buttons that would be refused. A failed check offers the forms; the server still decides.
  const termination = useQuery({
    queryKey: ['download-forms', 'termination'],
    queryFn: () => api.call(KernelApi.termination, undefined, { notify: false }),
    refetchOnMount: 'always',
    gcTime: 0,
  });
  const download = async (id: number) => {
    setBusy(id);
    setFailed(false);
    try {
      // The page says what went wrong itself: no toast besides.
      const file = await api.call(DownloadFormsApi.getByID, { query: { id } }, { notify: false });
      saveBlob(file.blob, file.fileName);
    } catch (error) {
      const words = finalRefusal(error);
      if (words) setRefused(words);
      else setFailed(true);
    } finally {
      setBusy(null);
    }
  };
  const ended = termination.data?.isTerminated === true;
  // The phone the server's refusal would give: the member's brand's (supportPhone), also on another brand's site.
  const phone = termination.data?.supportPhone === undefined ? brand.contacts.phone.trim() : termination.data.supportPhone;
  const message = refused ?? (ended ? (phone ? t('ended', { phone }) : t('endedNoPhone')) : null);
  return (
    <div className={layoutCss.card}>
      <p>{t('intro')}</p>
      {termination.isPending && <p aria-busy="true">{t('loading')}</p>}
      {message && (
        <Message kind="error" data-testid="download-forms-refused">
          {message}
        </Message>
      )}
      {failed && !message && <Message kind="error">{t('error')}</Message>}
      {!termination.isPending && !message && (
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
      )}
    </div>
  );
}
