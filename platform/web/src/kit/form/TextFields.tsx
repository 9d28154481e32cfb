import { formatMaskedDateInput, formatPhone, formatSsn, maskSsn, moneyInput, moneyOnBlur, phoneDigits, ssnDigits } from '@portal/core';
import { useTranslation } from 'react-i18next';
import { MaskedInputField, type MaskedInputFieldProps } from './MaskedInputField';
import type { KitFieldProps } from './useKitField';

const same = (v: string) => v;

export interface TextFieldProps extends KitFieldProps {
  placeholder?: string;
  autoComplete?: string;
  maxLength?: number;
  /** The on-screen keyboard a phone shows (a PA number: text; an amount: decimal). */
  inputMode?: MaskedInputFieldProps['inputMode'];
}

export function TextField(props: TextFieldProps) {
  return <MaskedInputField {...props} toStored={same} toDisplay={same} />;
}

export function EmailField(props: TextFieldProps) {
  return <MaskedInputField autoComplete="email" {...props} type="email" inputMode="email" toStored={(v) => v.trim()} toDisplay={same} />;
}

/** Stores digits only (max 10); shows (###) ###-####. */
export function PhoneField(props: TextFieldProps) {
  return <MaskedInputField autoComplete="tel-national" {...props} type="tel" inputMode="tel" toStored={phoneDigits} toDisplay={formatPhone} />;
}

/** Stores digits only (max 9); shows ###-##-#### while focused and XXX-XX-last4 once blurred. */
export function SsnField(props: TextFieldProps) {
  const { t } = useTranslation('kit');
  return (
    <MaskedInputField
      description={props.description ?? t('form.ssnMaskedHint')}
      {...props}
      inputMode="numeric"
      toStored={ssnDigits}
      toDisplay={(stored, focused) => (focused ? formatSsn(stored) : maskSsn(stored))}
    />
  );
}

export interface MaskedDateFieldProps extends TextFieldProps {
  /**
   * Bounds shown in the hint (MM/DD/YYYY). Enforce them in the schema with
   * maskedDateSchema({ before, after }) so server and client agree.
   */
  before?: string;
  after?: string;
}

/** MM/DD/YYYY typed; 8 digits MMDDYYYY become MM/DD/YYYY as you type. Stores the slashed text. */
export function MaskedDateField({ before, after, ...props }: MaskedDateFieldProps) {
  const { t } = useTranslation('kit');
  const hint = [t('form.dateFormat'), after ? t('form.dateAfter', { date: after }) : '', before ? t('form.dateBefore', { date: before }) : '']
    .filter(Boolean)
    .join(', ');
  return (
    <MaskedInputField
      description={props.description ?? hint}
      placeholder={t('form.dateFormat')}
      {...props}
      inputMode="numeric"
      toStored={formatMaskedDateInput}
      toDisplay={same}
    />
  );
}

/**
 * Money as text: digits and the marks as typed ('12,5', '1,234.56'), at most two decimals after a decimal point,
 * written as the plain amount with two decimals on blur ('1234.56'); text that is not money stays for the check to name.
 */
export function MoneyField(props: TextFieldProps) {
  return <MaskedInputField {...props} prefix="$" inputMode="decimal" toStored={moneyInput} toDisplay={same} onBlurStored={moneyOnBlur} />;
}
