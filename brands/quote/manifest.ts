import { defineBrand } from '@portal/core';

export default defineBrand({
  id: 'quote',
  displayName: 'CareQuote',
  marker: 'quote',
  theme: 'quote',
  plugins: ['account', 'quote-rules', 'trends'],
  registration: { role: 'CareQuote', mode: 'dialog', externalUrl: null, signInOnRegister: false },
  contacts: { phone: '(800) 555-0160', fax: '(800) 555-0161', supportEmail: 'support@quote.example.com', infoEmail: 'info@quote.example.com' },
  copy: {},
  printCard: 'none',
  home: '/dashboard',
});
