/** The most characters (code points) an upload's name keeps, its extension included. */
export const MAX_UPLOAD_FILE_NAME = 200;
/** The name given to a file whose name has nothing left but, at most, an extension ('.png' is 'file.png'). */
const FALLBACK = 'file';

/** Half a surrogate pair (it cannot be written as UTF-8). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/**
 * Characters a name is shown without: control characters (C0, DEL, C1), the bidirectional embeddings, overrides,
 * isolates and marks (which make 'invoice\u202Efdp.exe' read 'invoiceexe.pdf'), and the byte-order mark.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
/** The control characters that separate words (tabs, line breaks): a space, not nothing. */
const LINE_OR_TAB = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
/** An extension kept whole when a long name is cut: a dot and up to 16 letters or digits at the end. */
const EXTENSION = /\.[\p{L}\p{N}]{1,16}$/u;

const codePoints = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};
const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/** The text cut to at most `max` code points, never inside a character as the reader sees it (a letter and its accents, an emoji). */
function cut(text: string, max: number): string {
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = codePoints(segment);
    if (used + size > max) break;
    out += segment;
    used += size;
  }
  return out;
}

/**
 * The name an uploaded file is kept and shown under, from the name its sender gave: in NFC, without control or
 * bidirectional-override characters, whitespace (a newline, a tab) as single spaces, slashes as hyphens, no leading
 * dot (a name that is only an extension gets a base: '.png' is 'file.png'), and at most `max` characters, the extension
 * kept when it is cut. Never empty. It is a display name: file keys never hold it (a key is made of ids).
 */
export function uploadFileName(name: string, max = MAX_UPLOAD_FILE_NAME): string {
  let text = name
    .replace(LONE_SURROGATE, '\uFFFD')
    .normalize('NFC')
    .replace(LINE_OR_TAB, ' ')
    .replace(INVISIBLE, '')
    .replace(/[\\/]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.startsWith('.')) {
    const rest = text.replace(/^[.\s]+/, '');
    text = rest === '' || rest.includes('.') ? rest : `${FALLBACK}.${rest}`;
  }
  if (text === '') return FALLBACK;
  if (codePoints(text) <= max) return text;
  const ext = EXTENSION.exec(text)?.[0] ?? '';
  const base = cut(text.slice(0, text.length - ext.length), max - codePoints(ext)).trimEnd();
  return `${base === '' ? FALLBACK : base}${ext}`;
}
