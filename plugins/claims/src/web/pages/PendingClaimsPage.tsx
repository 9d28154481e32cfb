import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ClaimsApi } from '../../contract';
import { BillsGrid } from '../components/BillsGrid';
import { daysAgo } from '../components/format';

/** /pendingclaims (CareGuard): the last 90 days, PaidDate descending (spec 02 section 9). */
export default function PendingClaimsPage() {
  const { t } = useTranslation('claims');
  const filters = useMemo(() => ({ ReceivedDateFrom: daysAgo(90) }), []);
  return (
    <BillsGrid
      label={t('grid.pendingLabel')}
      endpoint={ClaimsApi.searchAmethyst}
      filters={filters}
      defaultSort={{ column: 'PaidDate', order: 'desc' }}
      stateKey="pending"
      linkToDetail={false}
    />
  );
}
