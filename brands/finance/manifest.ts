import { defineBrand } from '@portal/core';

export default defineBrand({
  id: 'finance',
  displayName: 'CareGuard Finance',
  marker: 'finance',
  theme: 'finance',
  plugins: [
    'account',
    'banking',
    'claims',
    'contacts',
    'documents',
    'download-forms',
    'help',
    // For the admin balance on the dashboard and /trend (CareGuardFinance); the ledger's pages are not finance's roles.
    'ledger',
    'notes',
    'price-finder',
    'print-card',
    'profile',
    'registration',
    'reimbursement',
    'trends',
  ],
  // Finance sells no membership here (billing is not enabled): its wizard is Personal Info, then Finish.
  registration: { role: 'CareGuardFinance', mode: 'dialog', externalUrl: null, signInOnRegister: false, wizard: { skip: ['subscription', 'card'] } },
  contacts: { phone: '(800) 555-0140', fax: '(800) 555-0141', supportEmail: 'support@finance.example.com', infoEmail: 'info@finance.example.com' },
  copy: {},
  printCard: 'finance',
  home: '/dashboard',
});
