import { indexPlan, sortsRows, startTestServer } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberPageSql } from './list';

/**
 * Support's members list and its work queue's Pending count read indexes in their order rather than every member or
 * login (measured before at 100,000 members on PGlite: 230-333 ms a page sorted by first name, 109-205 ms the Pending
 * count). The plans are read with sequential scans
 * and sorts priced out, so the test says whether an index can serve the statement at all, on a database of any size.
 */
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const plan = (statement: string, params: unknown[]) => indexPlan(server.database.sql, statement, params);

describe("support's members list reads an index in the list's order", () => {
  it('sorted by first name (its default) or last name, either way, reads the name index, with no sort of every member', async () => {
    for (const [column, index] of [
      ['FirstName', 'members_first_name_idx'],
      ['LastName', 'members_name_idx'],
    ] as const) {
      for (const order of ['ASC', 'DESC'] as const) {
        const { page } = memberPageSql({ Status: 'Members', SortColumn: column, SortOrder: order, PageSize: 10, PageIndex: 0 });
        const text = await plan(page.sql, page.params);
        expect(text, `${column} ${order}`).toContain(index);
        expect(text, `${column} ${order}`).not.toSatisfy(sortsRows);
      }
    }
  });

  it("the work queue's Pending count finds pending logins by their own index", async () => {
    const { count } = memberPageSql({ Status: 'Pending', SortColumn: 'FirstName', SortOrder: 'ASC', PageSize: 10, PageIndex: 0 });
    expect(await plan(count.sql, count.params)).toContain('users_pending_member_idx');
  });
});
