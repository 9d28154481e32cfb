import { defineBrand } from '@portal/core';

/** Internal build with every plugin; a test checks that it lists each installed plugin. */
export default defineBrand({
  id: 'staff',
  displayName: 'Portal Staff',
  marker: 'staff',
  theme: 'staff',
  plugins: [
    'account',
    'banking',
    'billing',
    'claims',
    'contacts',
    'coupons',
    'documents',
    'download-forms',
    'help',
    'kit-gallery',
    'ledger',
    'notes',
    'price-finder',
    'print-card',
    'profile',
    'quote-rules',
    'trends',
    'users',
  ],
  registration: { role: null, mode: 'dialog', externalUrl: null, signInOnRegister: false },
  contacts: { phone: '(800) 555-0100', fax: '(800) 555-0101', supportEmail: 'support@portal.example.com', infoEmail: 'info@portal.example.com' },
  copy: {},
  printCard: 'none',
  home: '/dashboard',
});
