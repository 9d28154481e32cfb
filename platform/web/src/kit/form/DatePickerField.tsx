import { CalendarDate } from '@internationalized/date';
import { type CalendarDay, formatIsoDay, parseIsoDay } from '@portal/core';
import { useCallback } from 'react';
import {
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DatePicker,
  DateSegment,
  type DateValue,
  Dialog,
  Group,
  Heading,
  Popover,
} from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import { FieldHelp, FieldLabel } from './FieldParts';
import * as styles from './form.css';
import * as listBoxStyles from './listBox.css';
import { type KitFieldProps, useKitField } from './useKitField';

const toCalendarDate = (iso: string | null | undefined): CalendarDate | null => {
  const day = parseIsoDay(iso);
  return day ? new CalendarDate(day.year, day.month, day.day) : null;
};

/**
 * The picker works in calendar days (no time, no zone), so the day chosen is the day stored: this is the
 * spec's "shifted by the timezone offset" without any arithmetic.
 */
export const dateValueToIso = (value: Pick<CalendarDay, 'year' | 'month' | 'day'> | null): string => (value ? formatIsoDay(value) : '');

export interface DatePickerFieldProps extends KitFieldProps {
  /** Inclusive bounds as 'YYYY-MM-DD'. */
  minValue?: string;
  maxValue?: string;
}

/** Stores 'YYYY-MM-DD' of the chosen day, or '' when cleared. */
export function DatePickerField(props: DatePickerFieldProps) {
  const { t } = useTranslation('kit');
  const { field, errorText, isInvalid } = useKitField(props);
  // The form focuses the first invalid field on a refused submit through this ref: the date's segments are what takes
  // focus (the input around them is a group that cannot), so the ref hands the form the first segment to focus.
  const fieldRef = field.ref;
  const segmentsRef = useCallback(
    (group: HTMLDivElement | null) =>
      fieldRef(group ? { focus: () => group.querySelector<HTMLElement>('[role="spinbutton"]:not([aria-disabled="true"])')?.focus() } : null),
    [fieldRef],
  );
  const min = toCalendarDate(props.minValue);
  const max = toCalendarDate(props.maxValue);
  return (
    <DatePicker<DateValue>
      className={props.className ?? styles.field}
      name={field.name}
      value={toCalendarDate(typeof field.value === 'string' ? field.value : null)}
      onChange={(value) => field.onChange(dateValueToIso(value))}
      onBlur={field.onBlur}
      isInvalid={isInvalid}
      isRequired={props.isRequired ?? false}
      isDisabled={props.isDisabled ?? false}
      validationBehavior="aria"
      granularity="day"
      {...(min ? { minValue: min } : {})}
      {...(max ? { maxValue: max } : {})}
    >
      <FieldLabel label={props.label} isRequired={props.isRequired} />
      <Group className={styles.dateGroup}>
        <DateInput ref={segmentsRef} className={styles.dateInput}>
          {(segment) => <DateSegment segment={segment} className={styles.dateSegment} />}
        </DateInput>
        <Button aria-label={t('form.openCalendar')}>▾</Button>
      </Group>
      <FieldHelp description={props.description} errorText={errorText} />
      <Popover className={listBoxStyles.popover}>
        <Dialog>
          <Calendar className={styles.calendar}>
            <header className={styles.calendarHeader}>
              <Button slot="previous" aria-label={t('form.previousMonth')}>
                ‹
              </Button>
              <Heading />
              <Button slot="next" aria-label={t('form.nextMonth')}>
                ›
              </Button>
            </header>
            <CalendarGrid>{(date) => <CalendarCell date={date} className={styles.calendarCell} />}</CalendarGrid>
          </Calendar>
        </Dialog>
      </Popover>
    </DatePicker>
  );
}
