import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { REGISTRATION_PAGE_ACCESS, RegistrationPaths } from '../access';
import { passesRegistered, prepareStep } from './preparation';

const wizard = () => import('./pages/WizardPage');

export default defineWebPlugin({
  id: 'registration',
  i18n: { namespace: 'registration', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    { path: RegistrationPaths.welcome, access: REGISTRATION_PAGE_ACCESS, title: 'registration:title.welcome', load: wizard },
    { path: RegistrationPaths.start, access: REGISTRATION_PAGE_ACCESS, title: 'registration:title.start', load: wizard },
    { path: RegistrationPaths.profile, access: REGISTRATION_PAGE_ACCESS, title: 'registration:title.profile', load: wizard },
    { path: RegistrationPaths.contact, access: REGISTRATION_PAGE_ACCESS, title: 'registration:title.contact', load: wizard },
    { path: RegistrationPaths.subscription, access: REGISTRATION_PAGE_ACCESS, title: 'registration:title.subscription', load: wizard },
    { path: RegistrationPaths.card, access: REGISTRATION_PAGE_ACCESS, title: 'registration:title.card', load: wizard },
    { path: RegistrationPaths.confirmation, access: REGISTRATION_PAGE_ACCESS, title: 'registration:title.confirmation', load: wizard },
    {
      path: RegistrationPaths.welcomeOld,
      access: REGISTRATION_PAGE_ACCESS,
      title: 'registration:title.welcomeOld',
      load: () => import('./pages/WelcomeOldPage'),
    },
  ],
  contributes: [
    contribute(Extensions.navigationGuards, {
      id: 'registration.steps',
      order: 10,
      prepare: prepareStep,
      passes: passesRegistered,
      load: () => import('./guard'),
    }),
  ],
});
