import type { SqlClient } from '@portal/server';
import { PRICE_RESULTS_FETCH, type PriceLine } from '../contract';

/** What a search looks in: description and code, lower case. */
export const searchText = (description: string, code: string) => `${description} ${code}`.toLowerCase();

/** The distinct three-character pieces of the words of a search (words under 3 characters have none). */
export function trigramsOf(words: readonly string[]): string[] {
  const out = new Set<string>();
  for (const w of words) for (let i = 0; i + 3 <= w.length; i++) out.add(w.slice(i, i + 3));
  return [...out];
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A search word as match_text spells it: '/', '(', ')' and ',' as spaces (migration 0002). */
export const matchWord = (word: string) =>
  word
    .replace(/[/(),]/g, ' ')
    .replace(/ +/g, ' ')
    .trim();

/**
 * Lines whose description or code holds every word of the text (any case), best match first. The GIN index over the
 * lines' trigrams narrows the candidates to those holding every trigram of the words; the LIKE checks then run on those
 * few lines only.
 *
 * Order: a line scores 2 per search word that is a whole word of its drug, strength and form (match_text: the package
 * size is not part of it), 1 per word that begins one; higher scores first ('metformin 500' lists Metformin 500 mg
 * before Metformin 1000 mg in bottles of 500). Then by drug name, strength as a number, form, package size as a number
 * (30, 90, 100, 500, 1000) and code. The keys are stored columns (migration 0002, text in byte order): ordering the
 * matches costs a LIKE or two per word and line over the description order (top-N sort of the same matches).
 *
 * At most PRICE_RESULTS_FETCH lines: one past what the page shows, to tell it there are more.
 */
export async function searchPrices(sql: SqlClient, text: string): Promise<PriceLine[]> {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const trigrams = trigramsOf(words);
  const params: unknown[] = [PRICE_RESULTS_FETCH];
  const likes = words.map((w) => `p.search_text LIKE $${params.push(`%${escapeLike(w)}%`)}`);
  const candidates = trigrams.length > 0 ? `p.trigrams @> $${params.push(trigrams)}::text[]` : 'TRUE';
  const scores = words
    .map(matchWord)
    .filter(Boolean)
    .map((w) => {
      const whole = params.push(`% ${escapeLike(w)} %`);
      const begins = params.push(`% ${escapeLike(w)}%`);
      return `CASE WHEN p.match_text LIKE $${whole} THEN 2 WHEN p.match_text LIKE $${begins} THEN 1 ELSE 0 END`;
    });
  const score = scores.length > 0 ? scores.join(' + ') : '0';
  const rows = await sql.query<{ code: string; description: string; our_cents: number; awp_cents: number }>(
    `SELECT p.code, p.description, p.our_cents, p.awp_cents FROM price_list p
     WHERE ${candidates} AND ${likes.join(' AND ')}
     ORDER BY ${score} DESC, p.drug_name, p.strength_value NULLS FIRST, p.match_text, p.pack_size NULLS FIRST, p.code
     LIMIT $1`,
    params,
  );
  return rows.map((r) => ({ Code: r.code, Description: r.description, OurPrice: r.our_cents / 100, AWPPrice: r.awp_cents / 100 }));
}
