import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import * as css from './ledger.css';

export interface DateRange {
  From: string;
  To: string;
}

/**
 * The From and To date fields of the ledger's lists. From may not pass To (nor To From, nor `max`); clearing a field
 * keeps the range as it was. `onChange` gets the whole new range.
 */
export function DateRangeFields({ range, onChange, max }: { range: DateRange; onChange: (next: DateRange) => void; max?: string }) {
  const { t } = useTranslation('ledger');
  const ids = { from: useId(), to: useId() };
  return (
    <>
      <div className={css.field}>
        <label htmlFor={ids.from}>{t('filter.from')}</label>
        <input
          id={ids.from}
          type="date"
          className={css.input}
          value={range.From}
          max={range.To}
          onChange={(e) => e.target.value && onChange({ ...range, From: e.target.value })}
        />
      </div>
      <div className={css.field}>
        <label htmlFor={ids.to}>{t('filter.to')}</label>
        <input
          id={ids.to}
          type="date"
          className={css.input}
          value={range.To}
          min={range.From}
          max={max}
          onChange={(e) => e.target.value && onChange({ ...range, To: e.target.value })}
        />
      </div>
    </>
  );
}
