/**
 * Kernel-wide input rules that no plugin schema has to repeat.
 */

/** Half of a surrogate pair: text PostgreSQL cannot store as UTF-8 and no person types. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NUL = String.fromCharCode(0);
/** NUL (PostgreSQL text cannot hold it) or a lone surrogate. */
const isBadText = (s: string) => s.includes(NUL) || LONE_SURROGATE.test(s);

/**
 * The path ('' for the value itself) of the first string or key that holds bad text, or null when there is
 * none. Walks parsed JSON, query and path values; depth is bounded by the body limit.
 */
export function findBadText(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isBadText(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBadText(value[i], path ? `${path}.${i}` : String(i));
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const here = path ? `${path}.${k}` : k;
      if (isBadText(k)) return path ? `${path}.?` : '?';
      const found = findBadText(v, here);
      if (found !== null) return found;
    }
  }
  return null;
}

/** An id as the kernel accepts it: a positive integer written in decimal digits only (no sign, exponent, hex or fraction). */
export function parseId(raw: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n <= 2_147_483_647 ? n : null;
}
