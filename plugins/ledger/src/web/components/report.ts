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
