import { formatIsoDayText } from '@portal/core';
import { layoutCss, useApi, useKeepFocusInGroup } from '@portal/web';
import { Button, LoadFailed, Message, NativeSelectField, TableScroll } from '@portal/web/kit';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_DOCUMENT_PAGE_SIZE, DOCUMENT_PAGE_SIZES, DocumentsApi, LISTED_DOCUMENT_TYPES } from '../../contract';
import { AddDocument } from '../components/AddDocument';
import * as css from './pages.css';
import { useDownload } from './useDownload';

/** /documents: the member's 1099s, annual accountings and depletion letters, paged, filtered by type, downloadable. */
export default function DocumentsPage() {
  const api = useApi();
  // Next on the last page (Previous on the first) disables the button pressed: focus stays in the pager.
  const pagerRef = useKeepFocusInGroup<HTMLElement>();
  const { t } = useTranslation('documents');
  const [type, setType] = useState(0);
  const [pageSize, setPageSize] = useState(DEFAULT_DOCUMENT_PAGE_SIZE);
  const [page, setPage] = useState(1);
  const download = useDownload();
  const docs = useQuery({
    queryKey: ['documents', type, pageSize, page],
    queryFn: () =>
      api.call(
        DocumentsApi.getMemberDocuments,
        { body: { PageSize: pageSize, PageNumber: page, DocumentTypeIds: type ? [type] : [] } },
        { notify: false, skipLoadingBar: true },
      ),
    placeholderData: keepPreviousData,
  });
  // The last count the server gave: a page that failed to load keeps the pager, so the user can go back or on.
  const [lastTotal, setLastTotal] = useState(0);
  useEffect(() => {
    if (docs.data) setLastTotal(docs.data.TotalRows);
  }, [docs.data]);
  const pages = docs.data ? Math.max(1, Math.ceil(docs.data.TotalRows / pageSize)) : Math.max(1, page, Math.ceil(lastTotal / pageSize));
  // A retry after a failure reads as loading until it answers (the query's status stays 'error' meanwhile).
  const retrying = docs.isError && docs.isFetching;
  const listed = docs.data !== undefined && docs.data.Items.length > 0;
  return (
    <div className={layoutCss.card}>
      <p>{t('documents.intro')}</p>
      <AddDocument />
      <div className={css.controls}>
        <NativeSelectField
          label={t('documents.type')}
          value={type}
          options={[{ value: 0, label: t('documents.allTypes') }, ...LISTED_DOCUMENT_TYPES.map((id) => ({ value: id, label: t(`types.${id}`) }))]}
          onChange={(next) => {
            setType(next);
            setPage(1);
          }}
        />
        <NativeSelectField
          label={t('pageSize')}
          value={pageSize}
          options={DOCUMENT_PAGE_SIZES.map((n) => ({ value: n, label: String(n) }))}
          onChange={(next) => {
            setPageSize(next);
            setPage(1);
          }}
        />
      </div>
      {(docs.isPending || retrying) && <p aria-busy="true">{t('loading')}</p>}
      {docs.isError && !retrying && <LoadFailed message={t('error')} data-testid="documents-error" onRetry={() => void docs.refetch()} />}
      {download.failed && <Message kind="error">{t('downloadError')}</Message>}
      {docs.data?.Items.length === 0 && <p>{t('documents.empty')}</p>}
      {docs.data && listed && (
        <TableScroll label={t('documents.count', { count: docs.data.TotalRows })}>
          <table className={css.table} data-testid="documents">
            <caption className={css.caption}>{t('documents.count', { count: docs.data.TotalRows })}</caption>
            <thead>
              <tr>
                <th scope="col" className={css.cell}>
                  {t('columns.type')}
                </th>
                <th scope="col" className={css.cell}>
                  {t('columns.date')}
                </th>
                <th scope="col" className={css.cell}>
                  {t('columns.file')}
                </th>
                <th scope="col" className={css.cell}>
                  {t('columns.actions')}
                </th>
              </tr>
            </thead>
            <tbody>
              {docs.data.Items.map((d) => (
                <tr key={d.DocumentId}>
                  <td className={css.cell}>{t(`types.${d.DocumentTypeId}`, { defaultValue: d.DocumentType })}</td>
                  <td className={css.cell}>
                    <time dateTime={d.EffectiveDate}>{formatIsoDayText(d.EffectiveDate)}</time>
                  </td>
                  <td className={css.cell}>{d.FileName}</td>
                  <td className={css.cell}>
                    <Button
                      size="small"
                      isPending={download.busy === d.DocumentId}
                      pendingLabel={t('downloading')}
                      aria-label={t('downloadNamed', { name: d.FileName })}
                      onPress={() =>
                        download.run(d.DocumentId, (a) => a.call(DocumentsApi.downloadDocument, { body: { DocumentId: d.DocumentId } }, { notify: false }))
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
      {(listed || (docs.isError && page > 1)) && (
        <nav ref={pagerRef} className={css.pager} aria-label={t('pager')}>
          <Button size="small" isDisabled={page <= 1} onPress={() => setPage(page - 1)}>
            {t('previous')}
          </Button>
          <span>{t('pageOf', { page, pages })}</span>
          <Button size="small" isDisabled={page >= pages} onPress={() => setPage(page + 1)}>
            {t('next')}
          </Button>
        </nav>
      )}
    </div>
  );
}
