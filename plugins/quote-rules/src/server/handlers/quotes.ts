import { ApiError, conflict, notFound, route } from '@portal/server';
import { QuoteAccess } from '../../access';
import { QuoteApi, STALE_QUOTE_MESSAGE } from '../../contract';
import { evaluateQuote } from '../../engine/index';
import { savedIn } from '../outcome';
import { CHANGED_COMPANIES, findOwnQuote, iso, listCompanies, QUOTE_COLUMNS, type QuoteRow, ruleVersionsOf, toEngineCompany, toSavedQuote } from '../repo';

const NOT_FOUND = 'No such quote.';

/**
 * Cases and quotes saved per user: list mine, get one, save one (the server re-runs the engine and stores its outcome).
 * Overwriting a saved quote takes the Version it was read at: a stale one is 409 and nothing changes.
 */
export const quoteRoutes = [
  route(QuoteApi.mine, {
    access: QuoteAccess.quotes,
    handler: async ({ user, database }) => {
      if (!user) throw notFound(NOT_FOUND);
      const rows = await database.sql.query<{ id: number; saved_at: string | Date; company_count: number; pass_count: number; changed: string[] }>(
        `SELECT id, saved_at, cardinality(company_ids) AS company_count,
                (SELECT count(*)::int FROM jsonb_array_elements(outcome->'companies') c WHERE (c->>'pass')::boolean) AS pass_count,
                ${CHANGED_COMPANIES} AS changed
           FROM quote_quotes WHERE user_id = $1 ORDER BY saved_at DESC, id DESC LIMIT 100`,
        [user.id],
      );
      return rows.map((r) => ({
        Id: r.id,
        SavedDate: iso(r.saved_at),
        CompanyCount: Number(r.company_count),
        PassCount: Number(r.pass_count),
        RulesChanged: (r.changed ?? []).length > 0,
      }));
    },
  }),
  route(QuoteApi.get, {
    access: QuoteAccess.quotes,
    handler: async ({ user, params, database, t }) => {
      const saved = user && (await findOwnQuote(database.sql, user.id, params.id));
      if (!saved) throw notFound(NOT_FOUND);
      return savedIn(saved, t);
    },
  }),
  route(QuoteApi.save, {
    access: QuoteAccess.quotes,
    handler: async (ctx) => {
      const { user, body, database } = ctx;
      if (!user) throw notFound(NOT_FOUND);
      const companyIds = [...new Set(body.CompanyIds)];
      const companies = await listCompanies(database.sql, companyIds);
      if (companies.length !== companyIds.length) throw new ApiError(400, 'CompanyIds: unknown life company.');
      const outcome = evaluateQuote(body.Case, body.Quote, companies.map(toEngineCompany));
      // The rule Versions the outcome was checked against: a later edit of a company's rules marks the quote RulesChanged.
      const values = [JSON.stringify(body.Case), JSON.stringify(body.Quote), companyIds, JSON.stringify(outcome), JSON.stringify(ruleVersionsOf(companies))];
      // A new quote sent again with its IdempotencyKey (its answer was lost) answers the quote it added the first time.
      // An overwrite goes by its Version alone.
      const ref = body.Id === null && body.IdempotencyKey ? { userId: user.id, scope: 'quote-rules.quote', key: body.IdempotencyKey } : null;
      return database.sql.transaction(async (tx) => {
        const earlier = ref ? await ctx.services.createKeys.claim(tx, ref, body) : null;
        if (earlier !== null) {
          const added = await findOwnQuote(tx, user.id, Number(earlier));
          if (!added) throw notFound(NOT_FOUND);
          return savedIn(added, ctx.t);
        }
        const rows =
          body.Id === null
            ? await tx.query<QuoteRow>(
                `INSERT INTO quote_quotes (user_id, case_data, quote_data, company_ids, outcome, rule_versions) VALUES ($1, $2, $3, $4, $5, $6)
                 RETURNING ${QUOTE_COLUMNS}`,
                [user.id, ...values],
              )
            : await tx.query<QuoteRow>(
                `UPDATE quote_quotes SET case_data = $3, quote_data = $4, company_ids = $5, outcome = $6, rule_versions = $7, saved_at = now(), version = version + 1
                  WHERE id = $1 AND user_id = $2 AND version = $8 RETURNING ${QUOTE_COLUMNS}`,
                [body.Id, user.id, ...values, body.Version],
              );
        const row = rows[0];
        if (!row) {
          // No row matched: not one of the user's quotes (404), or saved since this Version (409).
          const own = body.Id === null ? [] : await tx.query('SELECT 1 FROM quote_quotes WHERE id = $1 AND user_id = $2', [body.Id, user.id]);
          throw own.length ? conflict(STALE_QUOTE_MESSAGE) : notFound(NOT_FOUND);
        }
        await ctx.audit(
          {
            action: body.Id === null ? 'quote.create' : 'quote.update',
            entity: 'quote',
            entityId: row.id,
            detail: { companies: companyIds, pass: outcome.companies.filter((c) => c.pass).map((c) => c.companyId) },
          },
          tx,
        );
        if (ref) await ctx.services.createKeys.record(tx, ref, row.id);
        return savedIn(toSavedQuote(row), ctx.t);
      });
    },
  }),
];
