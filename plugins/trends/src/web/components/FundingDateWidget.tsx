import { formatIsoDayText } from '@portal/core';
import { useApi } from '@portal/web';
import { LoadFailed } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import * as css from './dashboard.css';
import { fundingQuery } from './FundingDateWidget.data';
import { WidgetSkeleton } from './WidgetSkeleton';

/** The next funding date (CareGuardFinance and SuperUser). */
export default function FundingDateWidget() {
  const api = useApi();
  const { t } = useTranslation('trends');
  const q = useQuery(fundingQuery(api));
  // Try again asks for the funding date anew (the query's status stays 'error' until it answers: loading meanwhile).
  if (q.isPending || (q.isError && q.isFetching))
    return (
      <div aria-busy="true">
        <WidgetSkeleton lines={2} />
      </div>
    );
  if (q.isError) return <LoadFailed message={t('error')} onRetry={() => void q.refetch()} />;
  return (
    <div data-testid="funding-date">
      <p className={css.big}>{formatIsoDayText(q.data.FundingDate, 'long')}</p>
      <p className={css.muted}>{t('funding.note')}</p>
    </div>
  );
}
