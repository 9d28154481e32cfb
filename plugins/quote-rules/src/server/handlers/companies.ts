import { conflict, notFound, route } from '@portal/server';
import { QuoteAccess } from '../../access';
import { QuoteApi, STALE_COMPANY_MESSAGE } from '../../contract';
import { type CompanyRow, listCompanies, toLifeCompany } from '../repo';

/** The life companies and, for SuperUser, changing a company's rules (with the Version check: a stale save is 409). */
export const companyRoutes = [
  route(QuoteApi.companies, { access: QuoteAccess.quotes, handler: ({ database }) => listCompanies(database.sql) }),
  route(QuoteApi.updateCompany, {
    access: QuoteAccess.editRules,
    handler: async (ctx) => {
      const { params, body, database } = ctx;
      const { Version, ...rules } = body;
      return database.sql.transaction(async (tx) => {
        const rows = await tx.query<CompanyRow>(
          'UPDATE quote_companies SET rules = $2, version = version + 1 WHERE id = $1 AND version = $3 RETURNING id, name, rules, version',
          [params.id, JSON.stringify(rules), Version],
        );
        const row = rows[0];
        if (!row) {
          // No row matched: the company is missing (404) or was saved by someone else since this Version (409).
          const exists = await tx.query('SELECT 1 FROM quote_companies WHERE id = $1', [params.id]);
          throw exists.length ? conflict(STALE_COMPANY_MESSAGE) : notFound('No such life company.');
        }
        await ctx.audit({ action: 'quote.company.rules.update', entity: 'quote_company', entityId: params.id, detail: { rules, version: row.version } }, tx);
        return toLifeCompany(row);
      });
    },
  }),
];
