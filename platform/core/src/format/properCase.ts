const SMALL_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'but', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'with']);
/** Directions and post office boxes stay uppercase in addresses. */
const UPPER_WORDS = new Set(['nw', 'sw', 'ne', 'se', 'po']);

function capitalise(word: string): string {
  // Hyphenated and apostrophe parts each get a capital: Smith-Jones, O'Brien.
  return word.replace(/(^|[-'])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** Proper case: small words lowercase except the first; NW, SW, NE, SE and PO uppercase. */
export function properCase(input: string | null | undefined): string {
  let first = true;
  return (input ?? '').toLowerCase().replace(/[\p{L}\p{N}'.-]+/gu, (word) => {
    const bare = word.replace(/\./g, '');
    let out: string;
    if (UPPER_WORDS.has(bare)) out = word.toUpperCase();
    else if (!first && SMALL_WORDS.has(word)) out = word;
    else out = capitalise(word);
    first = false;
    return out;
  });
}
