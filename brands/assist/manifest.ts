import { defineBrand } from '@portal/core';

export default defineBrand({
  id: 'assist',
  displayName: 'CareAssist',
  marker: 'assist',
  theme: 'assist',
  plugins: ['account', 'billing', 'contacts', 'download-forms', 'help', 'ledger', 'notes', 'price-finder', 'print-card', 'profile', 'registration', 'trends'],
  registration: { role: 'CareAssist', mode: 'dialog', externalUrl: null, signInOnRegister: true, wizard: { skip: [] } },
  contacts: { phone: '(800) 555-0150', fax: '(800) 555-0151', supportEmail: 'support@assist.example.com', infoEmail: 'info@assist.example.com' },
  copy: { 'help:intro': 'CareAssist members can reach our care team every day from 8 am to 8 pm Eastern.' },
  printCard: 'careassist',
  home: '/dashboard',
});
