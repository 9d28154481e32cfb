/**
 * The payee name a reimbursement's bill is stored with (no shared payee: the member is paid back). It is data in
 * English; the pages show it in the reader's language (`shownPayee`). Kept free of zod: the dashboard's recent-bills
 * widget reads it, and the landing page's chunk loads no schema library.
 */
export const REIMBURSEMENT_PAYEE = 'Member reimbursement';
