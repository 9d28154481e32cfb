import { layoutCss, loadFailure, useApi } from '@portal/web';
import { Button, Dialog, LoadFailed, Message, saveBlob } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { PrintCardApi } from '../../contract';
import * as css from './PrintCardPage.css';

/** How long after load the help dialog opens when the page is reached with initial=true (spec 02 section 2). */
export const HELP_DELAY_MS = 2000;

/** /print, /amethyst/print and /careassist/print: the member's prescription card, printable wallet-size and as a PDF. */
export default function PrintCardPage() {
  const api = useApi();
  const { t } = useTranslation('print-card');
  const [params] = useSearchParams();
  const initial = params.get('initial') === 'true';
  const [helpOpen, setHelpOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const card = useQuery({ queryKey: ['print-card', 'card'], queryFn: () => api.call(PrintCardApi.getByID, {}, { notify: false }) });

  useEffect(() => {
    if (!initial) return;
    const timer = setTimeout(() => setHelpOpen(true), HELP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [initial]);

  const download = async () => {
    setDownloading(true);
    setDownloadFailed(false);
    try {
      const file = await api.call(PrintCardApi.download, {}, { notify: false });
      saveBlob(file.blob, file.fileName);
    } catch {
      setDownloadFailed(true);
    } finally {
      setDownloading(false);
    }
  };

  const data = card.data;
  // A retry after a failure reads as loading until it answers (the query's status stays 'error' meanwhile).
  const retrying = card.isError && card.isFetching;
  // No member record (404) is not found, and asking again would not change it: no Try again.
  const failure = card.isError && !retrying ? loadFailure(card.error) : null;
  return (
    <div className={layoutCss.card}>
      <p>{t('intro')}</p>
      {(card.isPending || retrying) && <p aria-busy="true">{t('loading')}</p>}
      {failure === 'notFound' && <Message kind="error">{t('notFound')}</Message>}
      {failure === 'loadError' && <LoadFailed message={t('error')} onRetry={() => void card.refetch()} data-testid="print-card-error" />}
      {data && (
        <>
          <div className={css.actions}>
            <Button variant="primary" onPress={() => window.print()}>
              {t('print')}
            </Button>
            <Button onPress={download} isPending={downloading} pendingLabel={t('downloading')}>
              {t('download')}
            </Button>
            <Button onPress={() => setHelpOpen(true)}>{t('help.open')}</Button>
          </div>
          {downloadFailed && <Message kind="error">{t('downloadError')}</Message>}
          <div className={css.printArea} data-testid="print-card">
            <section className={css.card} aria-label={t('front')}>
              <div className={css.band}>{data.ProgramName}</div>
              <dl className={css.fields}>
                <dt className={css.term}>{t('fields.member')}</dt>
                <dd className={css.value}>
                  {data.FirstName} {data.LastName}
                </dd>
                <dt className={css.term}>{t('fields.memberNumber')}</dt>
                <dd className={css.value}>{data.MemberNumber}</dd>
                <dt className={css.term}>{t('fields.bin')}</dt>
                <dd className={css.value}>{data.BIN}</dd>
                <dt className={css.term}>{t('fields.pcn')}</dt>
                <dd className={css.value}>{data.PCN}</dd>
                <dt className={css.term}>{t('fields.group')}</dt>
                <dd className={css.value}>{data.GroupId}</dd>
                <dt className={css.term}>{t('fields.copay')}</dt>
                <dd className={css.value}>{data.Copay}</dd>
              </dl>
            </section>
            <section className={css.card} aria-label={t('back')}>
              <dl className={css.fields}>
                <dt className={css.term}>{t('fields.vendor')}</dt>
                <dd className={css.value}>{data.PBMVendor}</dd>
                <dt className={css.term}>{t('fields.vendorPhone')}</dt>
                <dd className={css.value}>{data.VendorPhone}</dd>
                <dt className={css.term}>{t('fields.supportPhone')}</dt>
                <dd className={css.value}>{data.SupportPhone}</dd>
                <dt className={css.term}>{t('fields.payerNumber')}</dt>
                <dd className={css.value}>{data.PayerNumber}</dd>
              </dl>
              <p className={css.note}>{t('cardNote')}</p>
            </section>
          </div>
        </>
      )}
      <Dialog isOpen={helpOpen} onOpenChange={setHelpOpen} title={t('help.title')}>
        <ol className={css.helpSteps}>
          {(t('help.steps', { returnObjects: true }) as string[]).map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </Dialog>
    </div>
  );
}
