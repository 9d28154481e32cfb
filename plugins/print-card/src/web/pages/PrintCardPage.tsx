import { layoutCss, useApi } from '@portal/web';
import { Button, Dialog, LoadFailed, Message, saveBlob } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router-dom';
import { PRINT_CARD_ROUTES } from '../../access';
import { PrintCardApi } from '../../contract';
import * as css from './PrintCardPage.css';

/** How long after load the help dialog opens when the page is reached with initial=true (spec 02 section 2). */
export const HELP_DELAY_MS = 2000;

/**
 * A failure the server worded that asking again would not change: no member record (400), a membership that has
 * ended or a card that cannot be made (409). Its words are shown with no Try again; null for any other failure.
 */
const finalRefusal = (error: unknown): string | null => {
  const status = (error as { status?: unknown } | null)?.status;
  return (status === 400 || status === 409) && error instanceof Error && error.message ? error.message : null;
};
const isNotFound = (error: unknown) => (error as { status?: unknown } | null)?.status === 404;

/** /print, /amethyst/print and /careassist/print: the member's prescription card, printable wallet-size and as a PDF. */
export default function PrintCardPage() {
  const api = useApi();
  const { t } = useTranslation('print-card');
  const { pathname } = useLocation();
  const variant = PRINT_CARD_ROUTES.find((r) => r.path === pathname.replace(/\/+$/, '').toLowerCase())?.variant ?? 'finance';
  const [params] = useSearchParams();
  // Spec 02 section 2: the help dialog opens by itself on the card variant's page only.
  const initial = params.get('initial') === 'true' && variant === 'amethyst';
  const [helpOpen, setHelpOpen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  // Read anew on every visit (a profile save changes the name, or the vendor and so the BIN, PCN and group), and not
  // kept once the page is left: the card printed is the card as it is now, as the PDF is.
  const card = useQuery({
    queryKey: ['print-card', 'card'],
    queryFn: () => api.call(PrintCardApi.getByID, {}, { notify: false }),
    refetchOnMount: 'always',
    gcTime: 0,
  });

  // The print rules (print only the card) hold while this page is mounted, and no longer.
  useEffect(() => {
    document.body.classList.add(css.printing);
    return () => document.body.classList.remove(css.printing);
  }, []);

  useEffect(() => {
    if (!initial) return;
    const timer = setTimeout(() => setHelpOpen(true), HELP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [initial]);

  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      const file = await api.call(PrintCardApi.download, {}, { notify: false });
      saveBlob(file.blob, file.fileName);
    } catch (error) {
      setDownloadError(finalRefusal(error) ?? t('downloadError'));
    } finally {
      setDownloading(false);
    }
  };

  const data = card.data;
  // A retry after a failure reads as loading until it answers (the query's status stays 'error' meanwhile).
  const retrying = card.isError && card.isFetching;
  const failed = card.isError && !retrying;
  // No member record, an ended membership, a card that cannot be made, or no card: said once, with no Try again.
  const refusal = failed ? (finalRefusal(card.error) ?? (isNotFound(card.error) ? t('notFound') : null)) : null;
  return (
    <div className={layoutCss.card}>
      <p>{t('intro')}</p>
      {(card.isPending || retrying) && <p aria-busy="true">{t('loading')}</p>}
      {refusal && (
        <Message kind="error" data-testid="print-card-refused">
          {refusal}
        </Message>
      )}
      {failed && !refusal && <LoadFailed message={t('error')} onRetry={() => void card.refetch()} data-testid="print-card-error" />}
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
          {downloadError && <Message kind="error">{downloadError}</Message>}
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
                {/* No support line to give (the server's safeguard for a brand without one): no empty row. */}
                {data.SupportPhone && (
                  <>
                    <dt className={css.term}>{t('fields.supportPhone')}</dt>
                    <dd className={css.value}>{data.SupportPhone}</dd>
                  </>
                )}
                <dt className={css.term}>{t('fields.payerNumber')}</dt>
                <dd className={css.value}>{data.PayerNumber}</dd>
              </dl>
              <p className={css.note}>{t('cardNote')}</p>
            </section>
          </div>
        </>
      )}
      {/* Each variant's own help: the prepaid card (amethyst), the finance plan, the assistance program. */}
      <Dialog isOpen={helpOpen} onOpenChange={setHelpOpen} title={t(`help.${variant}.title`)}>
        <ol className={css.helpSteps}>
          {(t(`help.${variant}.steps`, { returnObjects: true }) as string[]).map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </Dialog>
    </div>
  );
}
