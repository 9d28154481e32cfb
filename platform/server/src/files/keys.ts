export class FileKeyError extends Error {}

/** S3's limit on a key, in UTF-8 bytes. */
const MAX_KEY_BYTES = 1024;

function checkSegments(text: string, what: string, segments: string[]): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing NUL and other control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(text)) throw new FileKeyError(`${what} has a control character or a backslash: ${JSON.stringify(text)}`);
  for (const segment of segments) {
    // A leading dot covers '.' and '..' and keeps the local store's own folders (.tmp, .meta) out of reach.
    if (segment.startsWith('.')) throw new FileKeyError(`${what} has a part starting with a dot: ${JSON.stringify(text)}`);
  }
}

/**
 * Refuses keys that could escape a directory or mean different files on different stores: empty, absolute, with
 * empty, '.'-led (so no '..') parts, backslashes, NUL or other control characters, or over 1,024 bytes.
 */
export function assertFileKey(key: string): void {
  if (key === '') throw new FileKeyError('a file key is empty');
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new FileKeyError(`a file key is longer than ${MAX_KEY_BYTES} bytes`);
  if (key.startsWith('/')) throw new FileKeyError(`a file key is absolute: ${JSON.stringify(key)}`);
  const segments = key.split('/');
  if (segments.some((s) => s === '')) throw new FileKeyError(`a file key has an empty part: ${JSON.stringify(key)}`);
  checkSegments(key, 'a file key', segments);
}

/** A listing prefix follows the key rules, except that it may be empty or end with '/'. */
export function assertFilePrefix(prefix: string): void {
  if (prefix === '') return;
  if (prefix.startsWith('/')) throw new FileKeyError(`a file prefix is absolute: ${JSON.stringify(prefix)}`);
  const segments = prefix.split('/');
  if (segments.slice(0, -1).some((s) => s === '')) throw new FileKeyError(`a file prefix has an empty part: ${JSON.stringify(prefix)}`);
  checkSegments(prefix, 'a file prefix', segments);
}

/** Orders keys by their UTF-8 bytes, as S3 lists them. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
