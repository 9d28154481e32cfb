import { layoutCss, useApi } from '@portal/web';
import { Button, LoadFailed, Message, NativeSelectField, TableScroll } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DocumentsApi } from '../../contract';
import * as css from './pages.css';
import { useDownload } from './useDownload';

/** /statements: pick a year of the effective years; that year's monthly statements are listed and downloadable. */
export default function StatementsPage() {
  const api = useApi();
  const { t, i18n } = useTranslation('documents');
  const [chosen, setChosen] = useState<number | null>(null);
  const download = useDownload();
  const years = useQuery({ queryKey: ['statements', 'years'], queryFn: () => api.call(DocumentsApi.effectiveYears, {}, { notify: false }) });
  const year = chosen ?? years.data?.[0] ?? null;
  const statements = useQuery({
    queryKey: ['statements', 'year', year],
    queryFn: () => api.call(DocumentsApi.monthlyStatements, { query: { selectedYear: year ?? 0 } }, { notify: false }),
    enabled: year !== null,
  });
  // A retry after a failure reads as loading until it answers (the query's status stays 'error' meanwhile).
  const yearsRetrying = years.isError && years.isFetching;
  const statementsRetrying = statements.isError && statements.isFetching;
  const monthLabel = (month: string) =>
    new Intl.DateTimeFormat(i18n.language === 'es' ? 'es-US' : 'en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${month}-01T00:00:00Z`),
    );
  return (
    <div className={layoutCss.card}>
      <p>{t('statements.intro')}</p>
      {(years.isPending || yearsRetrying) && <p aria-busy="true">{t('loading')}</p>}
      {years.isError && !yearsRetrying && <LoadFailed message={t('error')} data-testid="years-error" onRetry={() => void years.refetch()} />}
      {years.data?.length === 0 && <p>{t('statements.none')}</p>}
      {years.data && years.data.length > 0 && (
        <div className={css.controls}>
          <NativeSelectField
            label={t('statements.year')}
            value={year ?? years.data[0] ?? 0}
            options={years.data.map((y) => ({ value: y, label: String(y) }))}
            onChange={setChosen}
          />
        </div>
      )}
      {/* No year yet (the years still loading, or none): nothing is asked for, though the query reads as pending. */}
      {year !== null && (statements.isPending || statementsRetrying) && <p aria-busy="true">{t('statements.loading', { year })}</p>}
      {statements.isError && !statementsRetrying && (
        <LoadFailed message={t('error')} data-testid="statements-error" onRetry={() => void statements.refetch()} />
      )}
      {download.failed && <Message kind="error">{t('downloadError')}</Message>}
      {statements.data && (
        <TableScroll label={t('statements.count', { count: statements.data.length, year })}>
          <table className={css.table} data-testid="statements">
            <caption className={css.caption}>{t('statements.count', { count: statements.data.length, year })}</caption>
            <thead>
              <tr>
                <th scope="col" className={css.cell}>
                  {t('columns.month')}
                </th>
                <th scope="col" className={css.cell}>
                  {t('columns.actions')}
                </th>
              </tr>
            </thead>
            <tbody>
              {statements.data.map((s) => (
                <tr key={s.DocumentId}>
                  <td className={css.cell}>{monthLabel(s.EffectiveMonth)}</td>
                  <td className={css.cell}>
                    <Button
                      size="small"
                      isPending={download.busy === s.DocumentId}
                      pendingLabel={t('downloading')}
                      aria-label={t('downloadNamed', { name: monthLabel(s.EffectiveMonth) })}
                      onPress={() =>
                        download.run(s.DocumentId, (a) => a.call(DocumentsApi.downloadStatement, { query: { documentId: s.DocumentId } }, { notify: false }))
                      }
                    >
                      {t('download')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </div>
  );
}
