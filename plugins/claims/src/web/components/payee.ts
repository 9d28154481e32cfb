import type { TFunction } from 'i18next';
import type { Claim } from '../../contract';
import { REIMBURSEMENT_PAYEE } from '../../payee';

/**
 * A bill's payee as the pages show it: a reimbursement's (stored in English, no shared payee) in the reader's language.
 * Its own module, free of the contract's schemas: the dashboard's recent-bills widget uses it.
 */
export const shownPayee = (t: TFunction, c: Pick<Claim, 'PayeeID' | 'PayeeName'>): string =>
  c.PayeeID === null && c.PayeeName === REIMBURSEMENT_PAYEE ? t('payee.reimbursement') : c.PayeeName;
