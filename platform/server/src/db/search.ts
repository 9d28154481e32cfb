/**
 * What a search box's text requires, the same way on every list: the words of the text, each of which must appear
 * somewhere in the row's folded text (lower case, accents removed), in any order. "Núñez, José", "jose  nunez" and
 * "José Núñez" are the same two words; "Anne Marie" finds "Anne-Marie". Plain PostgreSQL (normalize, regexp_replace,
 * lower, strpos, LIKE), so it runs on PGlite and PostgreSQL alike; a column that keeps text folded is compared by LIKE,
 * which pg_trgm's trigram index serves (kernel migration 0011). Either way `%` and `_` in a word match only themselves.
 */

/** At most this many words of a search count; the rest are left out (a pasted paragraph stays a bounded query). */
export const MAX_SEARCH_WORDS = 8;

/** The combining diacritical marks NFD splits off accented letters (á is a and U+0301). */
const MARKS = '[\\u0300-\\u036f]';
const MARKS_JS = /[\u0300-\u036f]/g;

/**
 * Letters that are not a plain letter with marks, so NFD leaves them whole, and the plain letters a person types for
 * them: "Łukasz" is found by "lukasz", "Søren" by "soren", "Strauß" by "strauss". One letter each (translate() in SQL)
 * and the two-letter ones (replace()), in both cases.
 */
const LETTER_FROM = 'łŁøØđĐħĦıðÐ';
const LETTER_TO = 'lLoOdDhHidD';
const PAIRS: readonly (readonly [string, string])[] = [
  ['ß', 'ss'],
  ['ẞ', 'SS'],
  ['æ', 'ae'],
  ['Æ', 'AE'],
  ['œ', 'oe'],
  ['Œ', 'OE'],
];
const LETTER_FOLDS: Record<string, string> = {
  ...Object.fromEntries([...LETTER_FROM].map((letter, i) => [letter, LETTER_TO[i] as string])),
  ...Object.fromEntries(PAIRS),
};
/** The pairs foldSql replaces after lower(): their lower-case letters. */
const LOWER_PAIRS = PAIRS.filter(([from]) => from === from.toLowerCase());
const LETTERS_JS = new RegExp(`[${Object.keys(LETTER_FOLDS).join('')}]`, 'g');

/** The letters NFD leaves whole written as plain ones, case kept: "Łukasz Strauß" → "Lukasz Strauss". */
export function plainLetters(text: string): string {
  return text.replace(LETTERS_JS, (letter) => LETTER_FOLDS[letter] ?? letter);
}

/**
 * A text as the searches compare it (what foldSql does in SQL): decomposed (NFD), the accent marks dropped, the
 * letters NFD leaves whole written as plain ones, lower case. "Núñez" and "NUNEZ" both give "nunez"; á→a, ñ→n, ü→u,
 * ç→c, ő→o, ž→z, ł→l, ø→o, đ→d, ß→ss, æ→ae.
 */
export function foldText(text: string): string {
  return plainLetters(text.normalize('NFD').replace(MARKS_JS, '')).toLowerCase();
}

/** What separates words: white space, commas, hyphens (and dashes), slashes and dots. */
const SEPARATORS = /[\s,\-\u2010-\u2015/\\.]+/u;

/**
 * The words a search text requires: folded (foldText), split on spaces, commas, hyphens, slashes and dots, empty ones
 * dropped, the same word once, at most MAX_SEARCH_WORDS. Empty or no text: no words (the search filters nothing).
 */
export function searchWords(text: string | null | undefined, max = MAX_SEARCH_WORDS): string[] {
  if (!text) return [];
  const words = foldText(text.trim()).split(SEPARATORS).filter(Boolean);
  return [...new Set(words)].slice(0, max);
}

/**
 * The digits of a search text that reads as a phone number (digits, with only spaces and + ( ) - . / between them), to
 * find a phone stored as its ten digits: at least `min` of them (fewer would match nearly every number), and a leading
 * country code 1 dropped from eleven ("+1 512 555 0101", "1-512-555-0101" → 5125550101). Other text: null.
 */
export function phoneDigits(text: string | null | undefined, min = 3): string | null {
  if (!text || !/^[\d\s+().\-/]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  if (digits.length < min) return null;
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

/**
 * A SQL expression's text folded as foldText folds the words. Text of ASCII only (octet and character lengths equal:
 * most names, every e-mail and number) is only lower-cased; other text is decomposed, its marks dropped, lower-cased,
 * and the letters NFD leaves whole replaced (one translate() of eleven letters, three replace()s).
 * Measured at 100,000 members on PostgreSQL and PGlite: one word costs about what lower() alone costs when one row in
 * fifty has an accent, and 2 to 4 times that when half do (with the whole-letter folds, 1.1–1.7 times and 5–6 times);
 * a translate() of every accented letter cost 40 to 60 times.
 * `expr` is SQL of the caller's (columns), never user text.
 */
export function foldSql(expr: string): string {
  const e = `(${expr})`;
  const unmarked = `lower(regexp_replace(normalize(${e}, NFD), '${MARKS}', '', 'g'))`;
  // After lower(): the single letters in both cases (a database whose lower() leaves them), the pairs lower case.
  const letters = LOWER_PAIRS.reduce(
    (sql, [from, to]) => `replace(${sql}, '${from}', '${to}')`,
    `translate(${unmarked}, '${LETTER_FROM}', '${LETTER_TO.toLowerCase()}')`,
  );
  return `CASE WHEN octet_length(${e}) = length(${e}) THEN lower(${e}) ELSE ${letters} END`;
}

/**
 * A member's searchable text: name, member number and e-mail (the members list's columns, and what support's charges
 * search looks for in a charge's member). `members.search_text` keeps it folded (foldSql), written with the row (kernel
 * migration 0010): a search compares it as it is (`allWordsSql({ folded: 'm.search_text' }, ...)`).
 */
export const MEMBER_TEXT = `first_name || ' ' || last_name || ' ' || member_number || ' ' || coalesce(email, '')`;

/**
 * The migration statement that keeps `source` (SQL over `table`'s own columns) folded in a stored generated column
 * `search_text`, written with the row, for searches to compare as it is (`allWordsSql({ folded })`). A migration holds
 * this statement's text as it was when written (frozen: a change to foldSql must not change a migration already run),
 * and a unit test compares the two, so that a change to the folding fails until a new migration redefines the column.
 */
export function storedSearchTextSql(table: string, source: string): string {
  return `ALTER TABLE ${table} ADD COLUMN search_text text NOT NULL GENERATED ALWAYS AS (\n  ${foldSql(source)}\n) STORED`;
}

/** Adds a value to a statement's parameters and answers its placeholder (`$n`). */
export type SqlParam = (value: unknown) => string;

/** A placeholder maker over `params`: each call pushes its value and answers `$<its position>`. */
export function sqlParams(params: unknown[]): SqlParam {
  return (value) => {
    params.push(value);
    return `$${params.length}`;
  };
}

/** Text with LIKE's own characters (`%`, `_` and the backslash, its escape) escaped, to match only themselves in a pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

/** The LIKE pattern that finds `word` anywhere in a text: the word escaped (escapeLike) between two percent signs. */
export function containsPattern(word: string): string {
  return `%${escapeLike(word)}%`;
}

/**
 * The condition that every word is in the folded `expr`, ANDed, each word a parameter made by `param`; `true` for no
 * words. `expr` is SQL of the caller's (columns), never user text:
 * - text folded as it is read (a string): `strpos(<foldSql of expr>, $n) > 0` a word;
 * - text already folded as foldSql folds, kept in a column (`{ folded }`): `<column> LIKE $n` a word, `$n` the word's
 *   containsPattern, which a trigram index on the column (pg_trgm's gin_trgm_ops) serves for words of three letters
 *   or more, where strpos reads every row.
 * `alternative` may give a word other ways to match (a column that word also stands for, such as a status label;
 * `placeholder` is the word's parameter, to use again: its pattern for `{ folded }`, the word itself otherwise): its
 * SQL is ORed with that word's match.
 */
export function allWordsSql(
  expr: string | { folded: string },
  words: readonly string[],
  param: SqlParam,
  alternative?: (word: string, placeholder: string) => string | null,
): string {
  if (!words.length) return 'true';
  return `(${words
    .map((word) => {
      const placeholder = typeof expr === 'string' ? param(word) : param(containsPattern(word));
      const match = typeof expr === 'string' ? `strpos(${foldSql(expr)}, ${placeholder}) > 0` : `${expr.folded} LIKE ${placeholder}`;
      const other = alternative?.(word, placeholder);
      return other ? `(${match} OR ${other})` : match;
    })
    .join(' AND ')})`;
}
