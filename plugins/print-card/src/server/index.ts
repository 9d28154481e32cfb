import { defineServerPlugin } from '@portal/server';
import { printCardConfig } from './config';
import { cardRoutes } from './handlers/card';
import es from './i18n/es.json';

export default defineServerPlugin({
  id: 'print-card',
  // Reads and checks the PBM vendor configuration at start-up, so a bad file stops the start instead of a request.
  init: () => {
    printCardConfig();
  },
  routes: [...cardRoutes],
  messages: { es },
});
