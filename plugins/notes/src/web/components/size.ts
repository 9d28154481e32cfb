import { fileSize, type Locale } from '@portal/core';

/**
 * An attachment's size for its button: bytes, whole KB, or MB with one decimal, the number written in the page's
 * locale (the UI's, when none is given): '1.5 MB', '1,234.5 MB' (es-US writes numbers as en-US does).
 */
export function attachmentSize(bytes: number, locale?: Locale): string {
  const { value, unit } = fileSize(bytes, locale);
  return `${value} ${unit}`;
}
