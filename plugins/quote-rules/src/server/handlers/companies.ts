import { notFound, route } from '@portal/server';
import { QuoteAccess } from '../../access';
import { QuoteApi } from '../../contract';
import { listCompanies, toLifeCompany } from '../repo';

/** The life companies and, for SuperUser, changing a company's rules. */
export const companyRoutes = [
  route(QuoteApi.companies, { access: QuoteAccess.quotes, handler: ({ database }) => listCompanies(database.sql) }),
  route(QuoteApi.updateCompany, {
    access: QuoteAccess.editRules,
    handler: async (ctx) => {
      const { params, body, database } = ctx;
      return database.sql.transaction(async (tx) => {
        const rows = await tx.query<{ id: string; name: string; rules: never }>(
          'UPDATE quote_companies SET rules = $2 WHERE id = $1 RETURNING id, name, rules',
          [params.id, JSON.stringify(body)],
        );
        const row = rows[0];
        if (!row) throw notFound('No such life company.');
        await ctx.audit({ action: 'quote.company.rules.update', entity: 'quote_company', entityId: params.id, detail: { rules: body } }, tx);
        return toLifeCompany(row);
      });
    },
  }),
];
