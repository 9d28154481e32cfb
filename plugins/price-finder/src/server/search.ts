import { containsPattern, escapeLike, type SqlClient } from '@portal/server';
import { PRICE_RESULTS_FETCH, type PriceLine } from '../contract';

/** The text a line keeps for the trigram index (migrations 0001, 0003): description and code, lower case. */
export const searchText = (description: string, code: string) => `${description} ${code}`.toLowerCase();

/**
 * Abbreviations people type for a form, as the price list's descriptions spell it (drugs.ts: 'tablet', 'capsule',
 * 'extended-release tablet', 'delayed-release capsule', 'orally disintegrating tablet', 'injection (per mL)', 'ophthalmic
 * solution', 'ointment (per g)', strengths in 'mcg').
 */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  tab: 'tablet',
  tabs: 'tablet',
  tablets: 'tablet',
  cap: 'capsule',
  caps: 'capsule',
  capsules: 'capsule',
  er: 'extended-release',
  xr: 'extended-release',
  xl: 'extended-release',
  sr: 'extended-release',
  dr: 'delayed-release',
  ec: 'delayed-release',
  odt: 'orally disintegrating tablet',
  inj: 'injection',
  soln: 'solution',
  oint: 'ointment',
  ug: 'mcg',
  µg: 'mcg',
  μg: 'mcg',
};

/** Units written against their number ('500mg', '1g', '100units'), split from it as the descriptions write them. */
const NUMBER_UNIT = /(\d)(mg|mcg|ml|meq|units?|ug|µg|μg|g)(?![a-z])/g;
/**
 * What separates words, as in the ranking's match_text (migration 0002) and more: space , / ( ) ; + and a dot that is
 * no decimal point; then '-' (but in a code typed with its dashes).
 */
const SEPARATORS = /[\s,/();+]+|(?<!\d)\.|\.(?!\d)/;
/** An NDC-style code as typed, with its dashes ('00248-6594-28'). */
const DASHED_CODE = /^\d+(?:-\d+)+$/;

/** A word of a price search: `code` words (digits only) may also match a line's code, the others its description only. */
export interface PriceWord {
  text: string;
  code: boolean;
}

/**
 * The words of a price search: lower case; a comma between digits a decimal point ('2,5' is 2.5) unless three digits
 * follow (a thousands separator: '50,000'); a unit split from its number ('500mg' is 500 mg); split on space
 * , / - ( ) ; + and on dots that are not decimal points; common abbreviations spelled out (tab → tablet, caps → capsule,
 * er/xr → extended-release ...). A word looks like a code when it is one typed with dashes (its digits, dashes
 * removed) or 4 digits or more: only those may match a line's code, which a shorter number ('90', a package size)
 * would hit inside by chance.
 */
export function priceWords(text: string): PriceWord[] {
  const normal = text
    .toLowerCase()
    .replace(/(\d),(\d+)/g, (_m, d: string, rest: string) => (rest.length === 3 ? `${d} ${rest}` : `${d}.${rest}`))
    .replace(NUMBER_UNIT, '$1 $2');
  const words = new Map<string, PriceWord>();
  const add = (w: string, code: boolean) => {
    if (w && !words.has(w)) words.set(w, { text: w, code });
  };
  for (const token of normal.split(SEPARATORS)) {
    if (DASHED_CODE.test(token)) {
      add(token.replace(/-/g, ''), true);
      continue;
    }
    for (const piece of token.split('-')) {
      const spelled = ABBREVIATIONS[piece];
      if (spelled) for (const w of spelled.split(/[\s-]+/)) add(w, false);
      else add(piece, /^\d{4,}$/.test(piece));
    }
  }
  return [...words.values()];
}

/**
 * Lines whose description holds every word of the text (priceWords: any case, punctuation and common abbreviations
 * forgiven), a word that looks like a code also matching the line's code (dashes ignored: '00248659428' finds
 * 00248-6594-28), best match first. pg_trgm's index over the lines' search_text (migration 0003) narrows the
 * candidates to those holding each description word; the description's own LIKE then runs on those few lines only.
 *
 * Order: a line scores 2 per search word that is a whole word of its drug, strength and form (match_text: the package
 * size is not part of it), 1 per word that begins one; higher scores first ('metformin 500' lists Metformin 500 mg
 * before Metformin 1000 mg in bottles of 500). Then by drug name, strength as a number, form, package size as a number
 * (30, 90, 100, 500, 1000) and code. The keys are stored columns (migration 0002, text in byte order): ordering the
 * matches costs a LIKE or two per word and line over the description order (top-N sort of the same matches).
 *
 * At most PRICE_RESULTS_FETCH lines: one past what the page shows, to tell it there are more. None for a text without
 * a word ('---').
 */
export async function searchPrices(sql: SqlClient, text: string): Promise<PriceLine[]> {
  const words = priceWords(text);
  if (words.length === 0) return [];
  const params: unknown[] = [PRICE_RESULTS_FETCH];
  const inDescription = (w: string) => `lower(p.description) LIKE $${params.push(containsPattern(w))}`;
  // A description word is in search_text too (description and code), which the trigram index serves; a code word's
  // trigrams may span the code's dashes, which search_text keeps: only the description words narrow.
  const likes = words.map((w) => {
    if (w.code) return `(${inDescription(w.text)} OR replace(p.code, '-', '') LIKE $${params.push(containsPattern(w.text))})`;
    const pattern = params.push(containsPattern(w.text));
    return `p.search_text LIKE $${pattern} AND lower(p.description) LIKE $${pattern}`;
  });
  const score = words
    .map((w) => {
      const whole = params.push(`% ${escapeLike(w.text)} %`);
      const begins = params.push(`% ${escapeLike(w.text)}%`);
      return `CASE WHEN p.match_text LIKE $${whole} THEN 2 WHEN p.match_text LIKE $${begins} THEN 1 ELSE 0 END`;
    })
    .join(' + ');
  const rows = await sql.query<{ code: string; description: string; our_cents: number; awp_cents: number }>(
    `SELECT p.code, p.description, p.our_cents, p.awp_cents FROM price_list p
     WHERE ${likes.join(' AND ')}
     ORDER BY ${score} DESC, p.drug_name, p.strength_value NULLS FIRST, p.match_text, p.pack_size NULLS FIRST, p.code
     LIMIT $1`,
    params,
  );
  return rows.map((r) => ({ Code: r.code, Description: r.description, OurPrice: r.our_cents / 100, AWPPrice: r.awp_cents / 100 }));
}
