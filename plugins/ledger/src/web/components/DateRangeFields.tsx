import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { settledDay } from './dayInput';
import * as css from './ledger.css';

export interface DateRange {
  From: string;
  To: string;
}

/** One date field: what is typed stays in the field (a draft) and reaches `onDay` once it is a settled day. */
function DayField({ label, value, min, max, onDay }: { label: string; value: string; min?: string; max?: string; onDay: (day: string) => void }) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  // The range changed from outside (the other field, the address, a reset): the field shows it.
  useEffect(() => setDraft(value), [value]);
  return (
    <div className={css.field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="date"
        className={css.input}
        value={draft}
        min={min}
        max={max}
        onChange={(e) => {
          const next = e.target.value;
          setDraft(next);
          if (settledDay(next) && next !== value) onDay(next);
        }}
        // Left empty or half typed: the field shows the range's day again (clearing a field keeps the range).
        onBlur={() => setDraft(value)}
      />
    </div>
  );
}

/**
 * The From and To date fields of the ledger's lists. From may not pass To (nor To From, nor `max`); clearing a field
 * keeps the range as it was. `onChange` gets the whole new range, once a field holds a whole day (settledDay): typing a
 * date asks for no list of a half-typed one.
 */
export function DateRangeFields({ range, onChange, max }: { range: DateRange; onChange: (next: DateRange) => void; max?: string }) {
  const { t } = useTranslation('ledger');
  return (
    <>
      <DayField label={t('filter.from')} value={range.From} max={range.To} onDay={(From) => onChange({ ...range, From })} />
      <DayField label={t('filter.to')} value={range.To} min={range.From} max={max} onDay={(To) => onChange({ ...range, To })} />
    </>
  );
}
