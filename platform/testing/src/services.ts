import type { Services, Translate } from '@portal/server';
import { MemoryFileStore, pdfService, sheetService, translatedDocuments } from '@portal/server/kernel';

/**
 * The file, PDF and sheet services as a test server has them (files in memory), for plugin unit tests. With
 * `translate` (a stand-in for the kernel's catalogues) documents are written in their `language` as plugins get them.
 */
export function documentServices(translate?: Translate): Pick<Services, 'files' | 'pdf' | 'sheets'> {
  const documents = translate ? translatedDocuments(pdfService, sheetService, translate) : { pdf: pdfService, sheets: sheetService };
  return { files: new MemoryFileStore(), ...documents };
}
