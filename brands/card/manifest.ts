import { defineBrand } from '@portal/core';

export default defineBrand({
  id: 'card',
  displayName: 'Amethyst Card',
  marker: 'card',
  theme: 'card',
  plugins: ['account', 'banking', 'billing', 'claims', 'contacts', 'download-forms', 'help', 'ledger', 'notes', 'price-finder', 'print-card', 'profile', 'registration', 'trends'],
  registration: { role: 'CareGuard', mode: 'external', externalUrl: 'https://enroll.amethyst-card.example.com/register', signInOnRegister: false, wizard: { skip: [] } },
  contacts: { phone: '(800) 555-0170', fax: '(800) 555-0171', supportEmail: 'support@card.example.com', infoEmail: 'info@card.example.com' },
  copy: {},
  printCard: 'amethyst',
  home: '/dashboard',
});
