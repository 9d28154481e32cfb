import { defineBrand } from '@portal/core';

export default defineBrand({
  id: 'assist',
  displayName: 'CareAssist',
  marker: 'assist',
  theme: 'assist',
  plugins: ['account', 'billing', 'contacts', 'download-forms', 'help', 'ledger', 'notes', 'price-finder', 'print-card', 'profile', 'registration', 'trends'],
  registration: { role: 'CareAssist', mode: 'dialog', externalUrl: null, signInOnRegister: true, wizard: { skip: [] } },
  contacts: { phone: '(800) 555-0150', fax: '(800) 555-0151', supportEmail: 'support@assist.example.com', infoEmail: 'info@assist.example.com' },
  copy: {
    'help:intro': {
      en: 'Answers to common questions about your account. Choose a topic to read more. CareAssist members can reach our care team every day from 8 am to 8 pm Eastern.',
      es: 'Respuestas a preguntas frecuentes sobre su cuenta. Elija un tema para obtener más información. Los miembros de CareAssist pueden comunicarse con nuestro equipo de atención todos los días de 8 a. m. a 8 p. m., hora del Este.',
    },
    // The same hours in the "Contacting us" topic (its default says business days).
    'help:topics.contact-us.body': {
      en: 'Our care team answers by phone and e-mail every day from 8 am to 8 pm Eastern. Have your member number ready.',
      es: 'Nuestro equipo de atención responde por teléfono y por correo electrónico todos los días de 8 a. m. a 8 p. m., hora del Este. Tenga a mano su número de miembro.',
    },
  },
  printCard: 'careassist',
  home: '/dashboard',
});
