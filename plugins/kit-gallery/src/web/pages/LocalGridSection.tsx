import { formatCurrency, formatLocale } from '@portal/core';
import { DataGrid, type GridColumn } from '@portal/web/kit';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import * as css from './gallery.css';

/** Rows of the local grid: enough that only windowing keeps the page responsive. */
export const LOCAL_ROW_COUNT = 100_000;
const FIRST = ['Ana', 'Ben', 'Chloe', 'Dev', 'Eli', 'Fatima', 'Gus', 'Hana', 'Ivan', 'Jade', 'Kofi', 'Lena', 'Mateo', 'Nia', 'Owen', 'Priya'];
const LAST = ['Abbott', 'Baptiste', 'Chen', 'Dubois', 'Eze', 'Fischer', 'Gupta', 'Haddad', 'Ito', 'Jensen', 'Kowalski', 'Larsen', 'Moreau', 'Novak'];
const PLANS = ['Basic', 'Plus', 'Premier'] as const;

export interface LocalRow {
  Id: number;
  Member: string;
  Plan: (typeof PLANS)[number];
  Units: number;
  Amount: number;
}

/** Deterministic rows (a small linear congruential generator), so runs and screenshots repeat. */
export function generateRows(count = LOCAL_ROW_COUNT): LocalRow[] {
  let seed = 20_240_601;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const rows: LocalRow[] = new Array(count);
  for (let i = 0; i < count; i++) {
    rows[i] = {
      Id: i + 1,
      Member: `${FIRST[Math.floor(next() * FIRST.length)]} ${LAST[Math.floor(next() * LAST.length)]}`,
      Plan: PLANS[Math.floor(next() * PLANS.length)] ?? 'Basic',
      Units: 1 + Math.floor(next() * 100),
      Amount: Math.round(next() * 500_000) / 100,
    };
  }
  return rows;
}

/** The local grid: 100,000 rows in memory, sorted and filtered in the browser, windowed (paging off). */
export function LocalGridSection() {
  const { t } = useTranslation('kit-gallery');
  const headingId = useId();
  const data = useMemo(() => generateRows(), []);
  const columns = useMemo<GridColumn<LocalRow>[]>(
    () => [
      { id: 'Id', header: t('columns.Id'), accessor: (r) => r.Id, sortable: true, filterable: true, hideable: false, align: 'end', width: '7em' },
      { id: 'Member', header: t('columns.Member'), accessor: (r) => r.Member, sortable: true, filterable: true },
      { id: 'Plan', header: t('columns.Plan'), accessor: (r) => r.Plan, cell: (r) => t(`plan.${r.Plan}`), sortable: true, filterable: true },
      { id: 'Units', header: t('columns.Units'), accessor: (r) => r.Units, sortable: true, align: 'end' },
      { id: 'Amount', header: t('columns.Amount'), accessor: (r) => r.Amount, cell: (r) => formatCurrency(r.Amount), sortable: true, align: 'end' },
    ],
    [t],
  );
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className={css.heading}>
        {t('local.heading')}
      </h2>
      <p className={css.description}>{t('local.description', { rows: LOCAL_ROW_COUNT.toLocaleString(formatLocale()) })}</p>
      <DataGrid<LocalRow>
        label={t('local.label')}
        columns={columns}
        data={data}
        getRowId={(r) => String(r.Id)}
        getRowLabel={(r) => `${r.Id} ${r.Member}`}
        pageable={false}
        sortable
        filterable
        searchable
        selectionMode="multiple"
        exportable
        exportName="claims"
        rowHeight={40}
        maxHeight={480}
      />
    </section>
  );
}
