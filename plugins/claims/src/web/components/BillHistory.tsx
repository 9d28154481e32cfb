import { formatIsoDayText } from '@portal/core';
import { layoutCss, useApi } from '@portal/web';
import { Message, RadioOption } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Label, RadioGroup } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { type Claim, ClaimsApi, PAGE_SIZES } from '../../contract';
import { BillsGrid } from './BillsGrid';
import * as css from './claims.css';
import { money } from './format';
import { allPages, duplicateFilters, HISTORY_YEARS, historyFilters, possibleDuplicates } from './history';
import { shownPayee } from './payee';

/** The most bills one search page returns; the check reads page after page (allPages). */
const DUPLICATE_PAGE = Math.max(...PAGE_SIZES);

/** Other bills of this member that look like this one (same payee, first service day and amount), as a warning. */
function DuplicateWarning({ bill }: { bill: Claim }) {
  const api = useApi();
  const { t } = useTranslation('claims');
  const filters = useMemo(() => duplicateFilters(bill), [bill]);
  const same = useQuery({
    queryKey: ['claims', 'duplicates', bill.ClaimID, filters],
    queryFn: () =>
      allPages(
        (PageIndex) =>
          api.call(
            ClaimsApi.search,
            { body: { ...filters, PageIndex, PageSize: DUPLICATE_PAGE, SortColumn: 'ClaimID', SortOrder: 'asc' } },
            { notify: false, skipLoadingBar: true },
          ),
        DUPLICATE_PAGE,
      ),
    select: (items) => possibleDuplicates(bill, items),
  });
  if (!same.data || same.data.length === 0) return null;
  return (
    <Message kind="warning" title={t('billHistory.duplicateTitle', { count: same.data.length })} data-testid="possible-duplicates">
      <p>{t('billHistory.duplicateText', { payee: shownPayee(t, bill), day: formatIsoDayText(bill.ServiceDateFrom), amount: money(bill.BilledAmount) })}</p>
      <ul>
        {same.data.map((c) => (
          <li key={c.ClaimID}>
            <Link className={css.link} to={`/claims/${c.ClaimID}`}>
              {t('billHistory.duplicateRow', { id: c.ClaimID, received: formatIsoDayText(c.ReceivedDate) })}
            </Link>
          </li>
        ))}
      </ul>
    </Message>
  );
}

/**
 * A bill's history (spec 02 section 9, claim history 10 years): the member's bills received in the last 10 years,
 * all of them or only this payee's, with a warning when another bill looks like this one sent again.
 */
export function BillHistory({ bill }: { bill: Claim }) {
  const { t } = useTranslation('claims');
  const [scope, setScope] = useState<'all' | 'payee'>('all');
  const onlyPayee = scope === 'payee' && bill.PayeeID !== null;
  const filters = useMemo(() => historyFilters(bill, onlyPayee), [bill, onlyPayee]);
  return (
    <section className={layoutCss.card} aria-labelledby="bill-history">
      <div className={css.stack}>
        <h2 id="bill-history" className={css.flush}>
          {t('billHistory.title')}
        </h2>
        <p className={css.flush}>{t('billHistory.intro', { member: bill.MemberName, years: HISTORY_YEARS })}</p>
        <DuplicateWarning bill={bill} />
        {bill.PayeeID !== null && (
          <RadioGroup className={css.row} orientation="horizontal" value={scope} onChange={(v) => setScope(v === 'payee' ? 'payee' : 'all')}>
            <Label>{t('billHistory.show')}</Label>
            <RadioOption value="all">{t('billHistory.all')}</RadioOption>
            <RadioOption value="payee">{t('billHistory.payee', { payee: shownPayee(t, bill) })}</RadioOption>
          </RadioGroup>
        )}
        <BillsGrid
          label={t('billHistory.grid')}
          endpoint={ClaimsApi.search}
          filters={filters}
          defaultSort={{ column: 'ReceivedDate', order: 'desc' }}
          stateKey="bill-history"
        />
      </div>
    </section>
  );
}
