import { formatCents } from '@portal/core';
import { useApi } from '@portal/web';
import { Button, useDebouncedValue } from '@portal/web/kit';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_UNITS, encodePriceSearch, PRICE_SEARCH_MAX, PRICE_SEARCH_MIN, PriceFinderApi, type PriceLine } from '../../contract';
import { lineFigures, totals } from '../pricing';
import { searchView } from '../results';
import * as css from './PriceFinderPage.css';

interface Selected {
  line: PriceLine;
  /** As typed: non-numeric counts as 0. */
  units: string;
}

/**
 * The drug price finder: search from 3 characters (a dot is sent as a placeholder), select lines, set units (30 by
 * default) and compare our price with the average wholesale price; the savings table sums the selected lines.
 */
export default function PriceFinderPage() {
  const api = useApi();
  const { t } = useTranslation('price-finder');
  const searchId = useId();
  const hintId = useId();
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<Selected[]>([]);
  const term = useDebouncedValue(text.trim(), 250);
  const enabled = term.length >= PRICE_SEARCH_MIN;
  const results = useQuery({
    queryKey: ['price-finder', term],
    queryFn: ({ signal }) => api.call(PriceFinderApi.search, { params: { text: encodePriceSearch(term) } }, { skipLoadingBar: true, signal }),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  // The server sends one line past the page's when more match: the view shows the first PRICE_RESULTS_MAX and says so.
  const view = searchView({ enabled, isError: results.isError, data: results.data });
  const isSelected = (code: string) => selected.some((s) => s.line.Code === code);
  const toggle = (line: PriceLine) =>
    setSelected((list) =>
      list.some((s) => s.line.Code === line.Code) ? list.filter((s) => s.line.Code !== line.Code) : [...list, { line, units: String(DEFAULT_UNITS) }],
    );
  const setUnits = (code: string, units: string) => setSelected((list) => list.map((s) => (s.line.Code === code ? { ...s, units } : s)));
  const figures = selected.map((s) => ({ s, f: lineFigures(s.line, s.units) }));
  const sum = totals(figures.map((x) => x.f));
  const money = (cents: number) => formatCents(cents);

  return (
    <div>
      <div className={css.search}>
        <label htmlFor={searchId}>{t('search.label')}</label>
        <input
          id={searchId}
          className={css.input}
          type="search"
          value={text}
          maxLength={PRICE_SEARCH_MAX}
          autoComplete="off"
          aria-describedby={hintId}
          onChange={(e) => setText(e.target.value)}
        />
        <p id={hintId} className={css.hint} aria-live="polite">
          {t(view.hint.key, view.hint.values)}
        </p>
      </div>

      <section className={css.section} aria-labelledby={`${searchId}-results`}>
        <h2 id={`${searchId}-results`} className={css.heading}>
          {t('results.title')}
        </h2>
        <div className={css.results}>
          <table className={css.table} data-testid="price-results">
            <thead className={css.head}>
              <tr>
                <th scope="col" className={css.cell}>
                  {t('col.select')}
                </th>
                <th scope="col" className={css.cell}>
                  {t('col.code')}
                </th>
                <th scope="col" className={css.cell}>
                  {t('col.description')}
                </th>
                <th scope="col" className={css.num}>
                  {t('col.ourPrice')}
                </th>
                <th scope="col" className={css.num}>
                  {t('col.awpPrice')}
                </th>
              </tr>
            </thead>
            <tbody>
              {view.lines.map((line) => (
                <tr key={line.Code}>
                  <td className={css.cell}>
                    <input
                      type="checkbox"
                      checked={isSelected(line.Code)}
                      onChange={() => toggle(line)}
                      aria-label={t('select', { description: line.Description })}
                    />
                  </td>
                  <td className={css.cell}>{line.Code}</td>
                  <td className={css.cell}>{line.Description}</td>
                  <td className={css.num}>{money(Math.round(line.OurPrice * 100))}</td>
                  <td className={css.num}>{money(Math.round(line.AWPPrice * 100))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className={css.section} aria-labelledby={`${searchId}-selected`}>
        <h2 id={`${searchId}-selected`} className={css.heading}>
          {t('selected.title')}
        </h2>
        {selected.length === 0 ? (
          <p>{t('selected.none')}</p>
        ) : (
          <table className={css.table} data-testid="price-selected">
            <thead>
              <tr>
                <th scope="col" className={css.cell}>
                  {t('col.description')}
                </th>
                <th scope="col" className={css.num}>
                  {t('col.units')}
                </th>
                <th scope="col" className={css.num}>
                  {t('col.derivedOurPrice')}
                </th>
                <th scope="col" className={css.num}>
                  {t('col.totalOurPrice')}
                </th>
                <th scope="col" className={css.num}>
                  {t('col.totalPrice')}
                </th>
                <th scope="col" className={css.num}>
                  {t('col.savings')}
                </th>
                <th scope="col" className={css.cell}>
                  {t('col.actions')}
                </th>
              </tr>
            </thead>
            <tbody>
              {figures.map(({ s, f }) => (
                <tr key={s.line.Code} data-code={s.line.Code}>
                  <th scope="row" className={css.cell}>
                    {s.line.Description}
                  </th>
                  <td className={css.num}>
                    <input
                      className={css.units}
                      inputMode="decimal"
                      value={s.units}
                      onChange={(e) => setUnits(s.line.Code, e.target.value)}
                      aria-label={t('unitsFor', { description: s.line.Description })}
                    />
                  </td>
                  <td className={css.num}>{money(f.derivedOurCents)}</td>
                  <td className={css.num}>{money(f.totalOurCents)}</td>
                  <td className={css.num}>{money(f.totalCents)}</td>
                  <td className={css.num}>{money(f.savingsCents)}</td>
                  <td className={css.cell}>
                    <Button size="small" onPress={() => toggle(s.line)} aria-label={t('remove', { description: s.line.Description })}>
                      {t('removeShort')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className={css.section} aria-labelledby={`${searchId}-savings`}>
        <h2 id={`${searchId}-savings`} className={css.heading}>
          {t('savings.title')}
        </h2>
        <table className={css.table} data-testid="price-savings">
          <tbody>
            <tr>
              <th scope="row" className={css.cell}>
                {t('savings.lines')}
              </th>
              <td className={css.num}>{selected.length}</td>
            </tr>
            <tr>
              <th scope="row" className={css.cell}>
                {t('col.totalOurPrice')}
              </th>
              <td className={css.num}>{money(sum.totalOurCents)}</td>
            </tr>
            <tr>
              <th scope="row" className={css.cell}>
                {t('col.totalPrice')}
              </th>
              <td className={css.num}>{money(sum.totalCents)}</td>
            </tr>
            <tr className={css.total}>
              <th scope="row" className={css.cell}>
                {t('savings.total')}
              </th>
              <td className={css.num} data-testid="savings-total">
                {money(sum.savingsCents)}
              </td>
            </tr>
          </tbody>
        </table>
      </section>
    </div>
  );
}
