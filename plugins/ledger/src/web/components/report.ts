/**
 * Downloads the period's report (spec 02 section 9: 'Report generated' on success): fetches the file, saves it and
 * then says so (`generated`, the translated toast). A failed call is not thrown on (a button's press would leave an
 * unhandled rejection) and says nothing more: the API client has shown the server's message. Answers whether the
 * file was saved.
 */
export async function downloadReport(
  fetchFile: () => Promise<{ blob: Blob; fileName: string }>,
  save: (blob: Blob, fileName: string) => void,
  generated: () => void,
): Promise<boolean> {
  try {
    const file = await fetchFile();
    save(file.blob, file.fileName);
  } catch {
    return false;
  }
  generated();
  return true;
}

/** Why report/send was refused, as the page words it: the key of its warning under `payer.`. */
export type SendRefusal = 'incomplete' | 'inFlight' | 'headerChanged' | 'otherReport' | 'error';

/**
 * Tells report/send's refusals apart by the answer's data, not its text (that is in the user's language): incomplete
 * records (`Incomplete`), another send of them waiting for the payer (`Sending`), a report header someone changed
 * since the page loaded it (`HeaderChanged`: the page then reads the header again), a payer that already holds a
 * different report of the period (`OtherReport`: support has to settle it); anything else failed to send.
 */
export function sendRefusalOf(error: unknown): SendRefusal {
  const body = typeof error === 'object' && error !== null ? (error as { body?: unknown }).body : null;
  const data = typeof body === 'object' && body !== null ? (body as { Data?: unknown }).Data : null;
  const flags = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  if (flags.Incomplete === true) return 'incomplete';
  if (flags.Sending === true) return 'inFlight';
  if (flags.HeaderChanged === true) return 'headerChanged';
  if (flags.OtherReport === true) return 'otherReport';
  return 'error';
}
