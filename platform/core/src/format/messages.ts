/**
 * Validation messages are i18n keys (namespace 'kit'), so server and web share one wording and the web
 * translates; the kit's en.json holds the English text.
 */
export const validationMessages = {
  required: 'validation.required',
  phone: 'validation.phone',
  mobileStartsWithZero: 'validation.mobileStartsWithZero',
  ssn: 'validation.ssn',
  email: 'validation.email',
  dateIncomplete: 'validation.dateIncomplete',
  dateInvalid: 'validation.dateInvalid',
  dateTooEarly: 'validation.dateTooEarly',
  dateTooLate: 'validation.dateTooLate',
  dob: 'validation.dob',
  money: 'validation.money',
  number: 'validation.number',
  mismatch: 'validation.mismatch',
  passwordPolicy: 'validation.passwordPolicy',
  passwordReset: 'validation.passwordReset',
  zip: 'validation.zip',
} as const;

export type ValidationMessageKey = (typeof validationMessages)[keyof typeof validationMessages];
