import { ATTACHMENT_EXTENSIONS, type AttachmentUpload, extensionOf, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, MAX_ATTACHMENTS_BYTES } from '../../contract';

/** What the file picker offers; the server checks every file's content whatever it is called. */
export const ACCEPTED_FILE_TYPES = ATTACHMENT_EXTENSIONS.map((e) => `.${e}`);

/** The form check of chosen files (count, extension, size): i18n keys of the notes namespace. */
export function filesProblem(files: readonly File[], already = 0): string | null {
  if (files.length + already > MAX_ATTACHMENTS) return 'notes:files.tooMany';
  if (files.some((f) => !(ATTACHMENT_EXTENSIONS as readonly string[]).includes(extensionOf(f.name)))) return 'notes:files.badType';
  if (files.some((f) => f.size > MAX_ATTACHMENT_BYTES)) return 'notes:files.tooLarge';
  if (files.reduce((n, f) => n + f.size, 0) > MAX_ATTACHMENTS_BYTES) return 'notes:files.tooLargeTogether';
  return null;
}

/** Reads chosen files as the contract sends them: the name and the bytes in base64. */
export async function toUploads(files: readonly File[]): Promise<AttachmentUpload[]> {
  return Promise.all(
    files.map(
      (file) =>
        new Promise<AttachmentUpload>((resolve, reject) => {
          const reader = new FileReader();
          reader.onload = () => {
            const url = String(reader.result);
            resolve({ FileName: file.name, Content: url.slice(url.indexOf(',') + 1) });
          };
          reader.onerror = () => reject(reader.error ?? new Error('read failed'));
          reader.readAsDataURL(file);
        }),
    ),
  );
}
