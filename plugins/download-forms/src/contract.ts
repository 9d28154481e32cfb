import { defineEndpoint, idSchema } from '@portal/core';
import { z } from 'zod';

export const DownloadFormsApi = {
  /** One of the caller's variant's letters, filled with the acting member's name, member number and address, as a PDF. */
  getByID: defineEndpoint({ method: 'GET', path: '/api/downloadforms/getByID', query: z.object({ id: idSchema }), answer: 'file' }),
} as const;
