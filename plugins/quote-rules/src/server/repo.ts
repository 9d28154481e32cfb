import type { SqlClient } from '@portal/server';
import type { LifeCompany, SavedQuote } from '../contract';
import type { Company, CompanyRules } from '../engine/index';

export interface CompanyRow {
  id: string;
  name: string;
  rules: CompanyRules;
  version: number;
}

export const toLifeCompany = (row: CompanyRow): LifeCompany => ({
  Id: row.id,
  Name: row.name,
  Rules: row.rules as LifeCompany['Rules'],
  Version: row.version,
});
export const toEngineCompany = (company: LifeCompany): Company => ({ id: company.Id, name: company.Name, rules: company.Rules });

export async function listCompanies(sql: SqlClient, ids?: readonly string[]): Promise<LifeCompany[]> {
  const rows = ids
    ? await sql.query<CompanyRow>('SELECT id, name, rules, version FROM quote_companies WHERE id = ANY($1::text[]) ORDER BY sort', [ids])
    : await sql.query<CompanyRow>('SELECT id, name, rules, version FROM quote_companies ORDER BY sort');
  return rows.map(toLifeCompany);
}

export interface QuoteRow {
  id: number;
  version: number;
  case_data: SavedQuote['Case'];
  quote_data: SavedQuote['Quote'];
  company_ids: string[];
  outcome: SavedQuote['Outcome'];
  saved_at: string | Date;
  /** The picked companies whose rules changed since the save (see CHANGED_COMPANIES). */
  changed: string[] | null;
}

const iso = (value: string | Date) => (value instanceof Date ? value.toISOString() : new Date(value).toISOString());

export function toSavedQuote(row: QuoteRow): SavedQuote {
  return {
    Id: row.id,
    Version: row.version,
    Case: row.case_data,
    Quote: row.quote_data,
    CompanyIds: row.company_ids,
    Outcome: row.outcome,
    SavedDate: iso(row.saved_at),
    RulesChanged: (row.changed ?? []).length > 0,
    ChangedCompanyIds: row.changed ?? [],
  };
}

/** The rule Version each company was checked at, as stored with a saved quote's outcome. */
export const ruleVersionsOf = (companies: readonly LifeCompany[]): Record<string, number> => Object.fromEntries(companies.map((c) => [c.Id, c.Version]));

/**
 * A saved quote's companies (in the companies' order) whose rule Version is not the one its outcome was checked
 * against. A quote saved before Versions were stored (rule_versions NULL) counts a company as changed once its rules
 * were ever edited (Version above 1): when that happened cannot be told.
 */
export const CHANGED_COMPANIES = `(SELECT coalesce(array_agg(c.id ORDER BY c.sort), '{}'::text[]) FROM quote_companies c
   WHERE c.id = ANY(quote_quotes.company_ids)
     AND CASE WHEN quote_quotes.rule_versions IS NULL THEN c.version > 1
              ELSE (quote_quotes.rule_versions->>c.id)::int IS DISTINCT FROM c.version END)`;

/** The columns a saved quote is answered from. */
export const QUOTE_COLUMNS = `id, version, case_data, quote_data, company_ids, outcome, saved_at, ${CHANGED_COMPANIES} AS changed`;

/** One of the user's own quotes, or null (another user's quote is as absent as a missing one). */
export async function findOwnQuote(sql: SqlClient, userId: string, id: number): Promise<SavedQuote | null> {
  const rows = await sql.query<QuoteRow>(`SELECT ${QUOTE_COLUMNS} FROM quote_quotes WHERE id = $1 AND user_id = $2`, [id, userId]);
  return rows[0] ? toSavedQuote(rows[0]) : null;
}

export { iso };
