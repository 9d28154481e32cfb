import { fileSize, formatCurrency, formatDateTime, formatIsoDayText } from '@portal/core';
import type { BillPanelProps } from '@portal/plugin-claims/bill-panels';
import { compactTableCss, layoutCss, useActingMemberId, useApi } from '@portal/web';
import { Button, LoadFailed, saveBlob, TableScroll } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReimbursementApi } from '../../contract';

/**
 * The "Receipts" panel of a bill's detail page (the claims plugin's billPanels): the files of the reimbursement request
 * the bill was made from, each downloadable. A bill made from no request renders nothing (no heading, no empty box).
 * The files are the member's own, as on /reimbursement: they are asked for only when the bill is the member's the
 * session acts for (a member's own bill, or SuperUser acting for the bill's member); otherwise the panel renders
 * nothing without asking.
 */
export default function BillReceipts({ ClaimID, ClaimNumber, MemberID }: BillPanelProps) {
  const { t } = useTranslation('reimbursement');
  const api = useApi();
  const acting = useActingMemberId();
  const heading = useId();
  const [busy, setBusy] = useState<number | null>(null);
  const ours = acting === MemberID;
  const files = useQuery({
    queryKey: ['reimbursement', 'byClaim', ClaimID, MemberID],
    queryFn: () => api.call(ReimbursementApi.listByClaim, { params: { id: ClaimID } }, { notify: false, skipLoadingBar: true }),
    enabled: ours,
  });
  if (!ours) return null;
  const failed = files.isError && !files.isFetching;
  if (!failed && (!files.data || files.data.length === 0)) return null;

  const download = async (id: number) => {
    setBusy(id);
    try {
      const file = await api.call(ReimbursementApi.download, { params: { id } });
      saveBlob(file.blob, file.fileName);
    } catch {
      // The API client said why.
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className={layoutCss.card} aria-labelledby={heading} data-testid="bill-receipts">
      <h2 id={heading}>{t('receipts.title')}</h2>
      {failed ? (
        <LoadFailed message={t('receipts.loadError')} onRetry={() => void files.refetch()} />
      ) : (
        <>
          <p>{t('receipts.intro', { claim: ClaimNumber })}</p>
          <TableScroll label={t('receipts.title')}>
            <table className={compactTableCss.table} aria-labelledby={heading}>
              <thead>
                <tr>
                  <th scope="col">{t('receipts.columns.name')}</th>
                  <th scope="col">{t('receipts.columns.type')}</th>
                  <th scope="col" className={compactTableCss.number}>
                    {t('receipts.columns.size')}
                  </th>
                  <th scope="col">{t('receipts.columns.serviceDate')}</th>
                  <th scope="col" className={compactTableCss.number}>
                    {t('receipts.columns.amount')}
                  </th>
                  <th scope="col">{t('receipts.columns.sent')}</th>
                  <th scope="col">{t('receipts.columns.file')}</th>
                </tr>
              </thead>
              <tbody>
                {(files.data ?? []).map((f) => {
                  const size = fileSize(f.Size);
                  return (
                    <tr key={f.Id}>
                      <td>{f.Name}</td>
                      <td className={compactTableCss.nowrap}>{f.Extension.toUpperCase()}</td>
                      <td className={compactTableCss.number}>{t(`receipts.size.${size.unit}`, { value: size.value })}</td>
                      <td className={compactTableCss.nowrap}>
                        <time dateTime={f.ServiceDate}>{formatIsoDayText(f.ServiceDate)}</time>
                      </td>
                      <td className={compactTableCss.number}>{formatCurrency(f.Amount)}</td>
                      <td className={compactTableCss.nowrap}>
                        <time dateTime={f.CreatedAt}>{formatDateTime(f.CreatedAt)}</time>
                      </td>
                      <td>
                        <Button
                          size="small"
                          aria-label={t('download', { name: f.Name })}
                          isPending={busy === f.Id}
                          pendingLabel={t('receipts.downloading')}
                          onPress={() => download(f.Id)}
                        >
                          {t('downloadShort')}
                        </Button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
    </section>
  );
}
