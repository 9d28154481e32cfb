import type { SqlClient } from '@portal/server';
import { PRICE_RESULTS_MAX, type PriceLine } from '../contract';

/** What a search looks in: description and code, lower case. */
export const searchText = (description: string, code: string) => `${description} ${code}`.toLowerCase();

/** The distinct three-character pieces of the words of a search (words under 3 characters have none). */
export function trigramsOf(words: readonly string[]): string[] {
  const out = new Set<string>();
  for (const w of words) for (let i = 0; i + 3 <= w.length; i++) out.add(w.slice(i, i + 3));
  return [...out];
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Lines whose description or code holds every word of the text (any case), by description. The GIN index over the
 * lines' trigrams narrows the candidates to those holding every trigram of the words; the LIKE checks then run on those
 * few lines only.
 */
export async function searchPrices(sql: SqlClient, text: string): Promise<PriceLine[]> {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const trigrams = trigramsOf(words);
  const params: unknown[] = [PRICE_RESULTS_MAX];
  const likes = words.map((w) => `p.search_text LIKE $${params.push(`%${escapeLike(w)}%`)}`);
  const candidates = trigrams.length > 0 ? `p.trigrams @> $${params.push(trigrams)}::text[]` : 'TRUE';
  const rows = await sql.query<{ code: string; description: string; our_cents: number; awp_cents: number }>(
    `SELECT p.code, p.description, p.our_cents, p.awp_cents FROM price_list p
     WHERE ${candidates} AND ${likes.join(' AND ')}
     ORDER BY p.description, p.code LIMIT $1`,
    params,
  );
  return rows.map((r) => ({ Code: r.code, Description: r.description, OurPrice: r.our_cents / 100, AWPPrice: r.awp_cents / 100 }));
}
