import { Button, DatePickerField, NumberField, SelectField } from '@portal/web/kit';
import { useTranslation } from 'react-i18next';
import { ANNUITY_TYPES, type DisabledFields, TERM_MESSAGES, TERM_TYPES, type TermMessage } from '../../engine/index';
import * as css from './quote.css';

/** Whole numbers only, as the contract takes them: a decimal point cannot be typed (7.5 years would be refused on save). */
export const WHOLE = { maximumFractionDigits: 0 } as const;

const messageKey = (message: TermMessage) => Object.entries(TERM_MESSAGES).find(([, text]) => text === message)?.[0] ?? 'termRequired';

interface Props {
  index: number;
  disabled: DisabledFields;
  messages: readonly TermMessage[];
  canRemove: boolean;
  onRemove: () => void;
}

/** One benefit row of the workbench; fields the field rules disable show why. */
export function BenefitRow({ index, disabled, messages, canRemove, onRemove }: Props) {
  const { t } = useTranslation('quote');
  const name = (field: string) => `Quote.Benefits.${index}.${field}`;
  const n = index + 1;
  const why = (field: keyof DisabledFields) => (disabled[field] ? t(`disabled.${disabled[field]}`) : undefined);
  return (
    <fieldset data-testid={`benefit-${n}`} className={css.benefit}>
      <legend>{t('benefit.legend', { n })}</legend>
      <div className={css.fieldRow}>
        <SelectField
          name={name('AnnuityType')}
          label={t('benefit.annuityType', { n })}
          options={ANNUITY_TYPES.map((code) => ({ value: code, label: t(`annuityType.${code}`) }))}
        />
        <SelectField
          name={name('TermType')}
          label={t('benefit.termType', { n })}
          options={TERM_TYPES.map((code) => ({ value: code, label: t(`termType.${code}`) }))}
          isDisabled={Boolean(disabled.TermType)}
          description={why('TermType')}
        />
        <NumberField
          name={name('TermYears')}
          label={t('benefit.years', { n })}
          minValue={0}
          formatOptions={WHOLE}
          isDisabled={Boolean(disabled.TermYears)}
          description={why('TermYears')}
        />
        <NumberField
          name={name('TermMonths')}
          label={t('benefit.months', { n })}
          minValue={0}
          formatOptions={WHOLE}
          isDisabled={Boolean(disabled.TermMonths)}
          description={why('TermMonths')}
        />
        <NumberField
          name={name('TermWeeks')}
          label={t('benefit.weeks', { n })}
          minValue={0}
          formatOptions={WHOLE}
          isDisabled={Boolean(disabled.TermWeeks)}
          description={why('TermWeeks')}
        />
        <NumberField
          name={name('COLA')}
          label={t('benefit.cola', { n })}
          minValue={0}
          // Hundredths at most, as the contract takes; no step, which would snap a typed 4.96 to 5.
          formatOptions={{ maximumFractionDigits: 2 }}
          isDisabled={Boolean(disabled.COLA)}
          description={why('COLA')}
        />
        <DatePickerField name={name('StartDate')} label={t('benefit.startDate', { n })} />
        <NumberField name={name('PremiumAmount')} label={t('benefit.premium', { n })} minValue={0} formatOptions={{ style: 'currency', currency: 'USD' }} />
        <NumberField name={name('PaymentAmount')} label={t('benefit.payment', { n })} minValue={0} formatOptions={{ style: 'currency', currency: 'USD' }} />
      </div>
      {messages.length > 0 && (
        <ul aria-label={t('benefit.termProblems', { n })}>
          {messages.map((message) => (
            <li key={message}>{t(`termMessage.${messageKey(message)}`)}</li>
          ))}
        </ul>
      )}
      {canRemove && (
        <Button variant="danger" onPress={onRemove}>
          {t('benefit.remove', { n })}
        </Button>
      )}
    </fieldset>
  );
}
