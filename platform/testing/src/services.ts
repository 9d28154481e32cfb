import type { Services } from '@portal/server';
import { MemoryFileStore, pdfService, sheetService } from '@portal/server/kernel';

/** The file, PDF and sheet services as a test server has them (files in memory), for plugin unit tests. */
export function documentServices(): Pick<Services, 'files' | 'pdf' | 'sheets'> {
  return { files: new MemoryFileStore(), pdf: pdfService, sheets: sheetService };
}
