import { containsPattern } from '@portal/server';

/**
 * How the payee searches and the identifier filters compare what a user types with what is stored: the text in
 * TypeScript, the column in SQL.
 */

/** Characters a stored payee name drops: "St. Mary" reads "St Mary", "O'Brien" "OBrien". */
const PAYEE_DROPPED = ['.', "'", '’'];
/** Characters that end a word of a stored name (besides the space); a typed word never holds one (payeeWords). */
const PAYEE_SEPARATORS = ',#/&()+:;"-';

/**
 * The words of a payee search, lower case, split on spaces and punctuation (". , # - ' / & ( ) + : ;"): "Walgreens
 * #4127" is walgreens, 4127; "St.Mary" st, mary; "Rite-Aid" rite, aid; "O'Brien" o, brien. Each must appear in the
 * name as payeeTextSql spells it (which drops . and ', so "o" and "brien" are both in "obrien"). None when the text
 * holds only punctuation.
 */
export function payeeWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s,#/&()+:;"\-.'’]+/)
    .filter(Boolean);
}

/**
 * A payee name as the words are looked for in it: lower case, '.' and apostrophes dropped ('st mary regional medical
 * center', 'walgreens pharmacy #4127': a typed word holds no punctuation, so '#' or '-' in the name only ends a word).
 * Nested replace(), a few microseconds a row: cheap enough for the bills' own payee names, which the global search
 * reads on the bills (translate() or a regular expression cost 4 to 10 times more, measured on 30,000 names).
 */
const payeeTextSql = (column: string) => PAYEE_DROPPED.reduce((sql, ch) => `replace(${sql}, '${ch.replace(/'/g, "''")}', '')`, `lower(${column})`);

/**
 * The name lower case without spaces or punctuation: 'riteaidpharmacy0911', 'stmaryregionalmedicalcenter' (what
 * 'Riteaid' or 'rite aid ph' begins). For the shared payees only: a short table.
 */
export const payeeCompactSql = (column: string) => `translate(lower(${column}), ' ${PAYEE_SEPARATORS}${PAYEE_DROPPED.join('').replace(/'/g, "''")}', '')`;

/**
 * SQL that is true when the payee name in `column` holds every pattern of `param` (a text[] of '%word%', see
 * payeePatterns), in the spaced form ('4127' in 'walgreens pharmacy #4127') or, with `compact`, in the compact one
 * ('riteaid' in 'riteaidpharmacy0911'; a word holds no space, so it never spans the two).
 */
export const payeeMatchSql = (column: string, param: string, compact = false) =>
  `${compact ? `(${payeeTextSql(column)} || ' ' || ${payeeCompactSql(column)})` : payeeTextSql(column)} LIKE ALL (${param}::text[])`;

/** The LIKE patterns of payeeMatchSql: '%word%' per word, LIKE wildcards taken as plain text. */
export const payeePatterns = (words: readonly string[]) => words.map(containsPattern);

/**
 * An identifier (member number, check number) as the filters compare it: upper case, spaces and '-' removed
 * ("chk-002", "CHK 002" and "CHK002" are one check). identifierSql is the same on a column.
 */
export const normalIdentifier = (text: string) => text.replace(/[\s-]+/g, '').toUpperCase();

/** normalIdentifier in SQL, the expression claims_check_norm_idx indexes (migration 0006). */
export const identifierSql = (column: string) => `upper(translate(${column}, ' -', ''))`;
