import { describe, expect, it } from 'vitest';
import { claimSearchSchema, SORT_COLUMNS } from '../contract';
import { MEMBER_INDEX_COVERS } from './migrations';
import { buildConditions, buildSearch, orderBy } from './query';

const filter = (input: Record<string, unknown>) => claimSearchSchema.parse(input);

describe('claims search SQL builder', () => {
  it('scopes to the member first and pages with LIMIT/OFFSET parameters', () => {
    const q = buildSearch(filter({ PageIndex: 3, PageSize: 50 }), { memberId: 42 });
    expect(q.list.params).toEqual([42, 50, 150]);
    expect(q.list.text).toContain('WHERE c.member_id = $1');
    expect(q.list.text).toContain('LIMIT $2 OFFSET $3');
    expect(q.list.text).toContain('ORDER BY c.claim_id DESC');
    expect(q.count.text).toBe('SELECT count(*)::int AS n FROM claims c WHERE c.member_id = $1');
    expect(q.count.params).toEqual([42]);
  });

  it("reads one member's page of bills with the members joined, and the total as a count of its own (no window over the page)", () => {
    const q = buildSearch(filter({ SortColumn: 'PaidDate', SortOrder: 'desc' }), { memberId: 42 });
    expect(q.listWithCount.text).toContain('(SELECT count(*)::int AS n FROM claims c WHERE c.member_id = $1) AS "__total"');
    expect(q.listWithCount.text).not.toContain('OVER');
    expect(q.listWithCount.text).toMatch(
      /FROM claims c JOIN members m ON m.member_id = c.member_id WHERE c.member_id = \$1\s+ORDER BY c.paid_date DESC NULLS LAST, c.claim_id DESC LIMIT \$2 OFFSET \$3$/,
    );
    expect(q.list.text).not.toContain('__total');
    expect(q.list.text.match(/FROM claims/g)).toHaveLength(1);
  });

  it('finds a page across members by claim id first, then reads those claims by id with no join, the count as a subquery', () => {
    const q = buildSearch(filter({ SortColumn: 'ReceivedDate', SortOrder: 'desc', PageIndex: 2 }), { memberId: null });
    expect(q.list.text).toContain(
      'WHERE c.claim_id = ANY(ARRAY(SELECT c.claim_id FROM claims c  ORDER BY c.received_date DESC, c.claim_id DESC LIMIT $1 OFFSET $2))',
    );
    expect(q.list.text).toContain('(SELECT member_number FROM members WHERE member_id = c.member_id) AS "MemberNumber"');
    expect(q.list.text).not.toContain('JOIN');
    expect(q.list.text).toMatch(/ORDER BY c.received_date DESC, c.claim_id DESC$/);
    expect(q.listWithCount.text).toContain('(SELECT count(*)::int AS n FROM claims c ) AS "__total"');
    expect(q.list.params).toEqual([20, 40]);
  });

  it("reads a staff search by one member's id or number as that member's list (the member's shape), the number by a scalar lookup", () => {
    const byId = buildSearch(filter({ MemberID: 7, SortColumn: 'PaidDate', SortOrder: 'desc' }), { memberId: null });
    expect(byId.list.text).toMatch(/FROM claims c JOIN members m ON m.member_id = c.member_id WHERE c.member_id = \$1\s+ORDER BY c.paid_date DESC NULLS LAST/);
    expect(byId.list.text).not.toContain('ARRAY(');
    expect(byId.list.params).toEqual([7, 20, 0]);
    const byNumber = buildSearch(filter({ MemberNumber: 'G0042' }), { memberId: null });
    expect(byNumber.count.text).toBe('SELECT count(*)::int AS n FROM claims c WHERE c.member_id = (SELECT member_id FROM members WHERE member_number = $1)');
    expect(byNumber.list.text).toContain('FROM claims c JOIN members m ON m.member_id = c.member_id WHERE c.member_id = (SELECT');
    expect(byNumber.list.params).toEqual(['G0042', 20, 0]);
  });

  it('has no member condition for a cross-member scope', () => {
    const q = buildSearch(filter({}), { memberId: null });
    expect(q.count.text).toBe('SELECT count(*)::int AS n FROM claims c ');
    expect(q.list.params).toEqual([20, 0]);
  });

  it('turns every filter into a parameterized condition', () => {
    const { where, params } = buildConditions(
      filter({
        MemberID: 7,
        MemberNumber: 'D123',
        MemberName: 'smith',
        ClaimID: 9,
        PayeeID: 3,
        ClaimNumber: 'cl24',
        ReceivedDateFrom: '2024-01-01',
        ReceivedDateTo: '2024-06-30',
        ServiceDateFrom: '2024-01-02',
        PaidDateTo: '2024-07-01',
        BillReviewReceivedDateFrom: '2024-02-01',
        CheckNumber: 'CHK1',
        ClaimStatusID: 2,
        BillTypeID: 21,
        ClaimTypeID: 1,
        IsPaid: false,
      }),
      { memberId: 1 },
    );
    expect(params).toEqual([1, 7, 'D123', '%smith%', 9, 3, 'CL24%', '2024-01-01', '2024-06-30', '2024-01-02', '2024-07-01', '2024-02-01', 'CHK1', 2, 21, 1]);
    expect(where).toContain('c.received_date >= $8::date');
    expect(where).toContain('c.received_date <= $9::date');
    expect(where).toContain('c.claim_number LIKE $7');
    expect(where).toContain('c.claim_status_id NOT IN (8,29,30)');
    // No user text in the SQL itself.
    expect(where.join(' ')).not.toMatch(/smith|CL24|CHK1|D123/);
  });

  it('matches the Paid status filter and the paid flag to 8, 29 and 30', () => {
    expect(buildConditions(filter({ ClaimStatusID: 8 }), { memberId: null }).where).toEqual(['c.claim_status_id IN (8,29,30)']);
    expect(buildConditions(filter({ IsPaid: true }), { memberId: null }).where).toEqual(['c.claim_status_id IN (8,29,30)']);
  });

  it('escapes LIKE wildcards in text filters', () => {
    const { params } = buildConditions(filter({ ClaimNumber: 'a%_b', MemberName: '100%' }), { memberId: null });
    expect(params).toEqual(['%100\\%%', 'A\\%\\_B%']);
  });

  it('sorts by whitelisted expressions with a claim id tie-break and nulls last', () => {
    expect(orderBy('PaidDate', 'asc')).toEqual({ sql: 'c.paid_date ASC NULLS FIRST, c.claim_id ASC', needsMember: false });
    expect(orderBy('PaidDate', 'desc').sql).toBe('c.paid_date DESC NULLS LAST, c.claim_id DESC');
    expect(orderBy('BilledAmount', 'desc').sql).toBe('c.billed_cents DESC, c.claim_id DESC');
    expect(orderBy('MemberName', 'asc').needsMember).toBe(true);
    const q = buildSearch(filter({ SortColumn: 'MemberNumber', SortOrder: 'ASC' }), { memberId: null });
    expect(q.list.text).toContain('FROM claims c JOIN members m ON m.member_id = c.member_id  ORDER BY m.member_number ASC, c.claim_id ASC');
  });

  it('adds extra conditions (pending claims)', () => {
    const q = buildSearch(filter({}), { memberId: 5 }, ['c.claim_status_id IN (1,2)']);
    expect(q.count.text).toBe('SELECT count(*)::int AS n FROM claims c WHERE c.member_id = $1 AND c.claim_status_id IN (1,2)');
  });
});

describe('claims search filter validation', () => {
  it('applies defaults', () => {
    expect(filter({})).toMatchObject({ PageIndex: 0, PageSize: 20, SortColumn: 'ClaimID', SortOrder: 'desc' });
  });
  it('treats empty strings and zero ids as absent', () => {
    const f = filter({ MemberID: 0, ClaimNumber: '  ', ReceivedDateFrom: '', ClaimStatusID: '', IsPaid: '' });
    expect(f.MemberID ?? null).toBeNull();
    expect(f.ClaimNumber ?? null).toBeNull();
    expect(f.ReceivedDateFrom ?? null).toBeNull();
    expect(f.ClaimStatusID ?? null).toBeNull();
  });
  it('refuses bad input with clear messages', () => {
    const bad = (input: Record<string, unknown>) => {
      const r = claimSearchSchema.safeParse(input);
      expect(r.success).toBe(false);
      return r.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    };
    expect(bad({ PageSize: 7 })).toBe('PageSize: must be one of 5, 10, 20, 50, 100');
    expect(bad({ SortColumn: 'claim_id; DROP TABLE claims' })).toContain('SortColumn: must be one of ClaimID');
    expect(bad({ SortOrder: 'sideways' })).toBe("SortOrder: must be 'asc' or 'desc'");
    expect(bad({ ReceivedDateFrom: '2024-02-30' })).toBe('ReceivedDateFrom: is not a valid calendar date');
    expect(bad({ ReceivedDateFrom: '03/01/2024' })).toBe('ReceivedDateFrom: must be a date as YYYY-MM-DD');
    expect(bad({ ReceivedDateFrom: '2024-05-01', ReceivedDateTo: '2024-04-01' })).toBe('ReceivedDateTo: must not be before ReceivedDateFrom');
    expect(bad({ ClaimStatusID: 12 })).toBe('ClaimStatusID: is not a known claim status');
    expect(bad({ PageIndex: -1 })).toBe('PageIndex: must be 0 or more');
  });
  it('accepts ISO timestamps as days and numeric strings as ids', () => {
    expect(filter({ PaidDateFrom: '2024-03-04T05:00:00.000Z', ClaimID: '12' })).toMatchObject({ PaidDateFrom: '2024-03-04', ClaimID: 12 });
  });

  it("reads one member's bills, in every sort and with every filter, only from columns the member index carries", () => {
    // The member index's keys and its INCLUDE list (claims_member_cover_idx): a column outside them sends a member's
    // list back to one table page per bill.
    const carried = new Set<string>(['member_id', 'received_date', 'claim_id', ...MEMBER_INDEX_COVERS]);
    const everyFilter = {
      ClaimID: 9,
      PayeeID: 3,
      ClaimNumber: 'CL26',
      CheckNumber: 'chk 1',
      ClaimStatusID: 2,
      BillTypeID: 1,
      ClaimTypeID: 2,
      IsPaid: false,
      ReceivedDateFrom: '2026-01-01',
      ReceivedDateTo: '2026-06-30',
      ServiceDateFrom: '2026-01-01',
      ServiceDateTo: '2026-06-30',
      PaidDateFrom: '2026-01-01',
      PaidDateTo: '2026-06-30',
      BillReviewReceivedDateFrom: '2026-01-01',
      BillReviewReceivedDateTo: '2026-06-30',
    };
    const read = new Set<string>();
    for (const SortColumn of SORT_COLUMNS)
      for (const SortOrder of ['asc', 'desc'])
        for (const q of [
          buildSearch(filter({ SortColumn, SortOrder }), { memberId: 42 }),
          buildSearch(filter({ ...everyFilter, SortColumn, SortOrder }), { memberId: 42 }, ['c.claim_status_id IN (1,2)']),
          buildSearch(filter({ MemberNumber: 'R000111222', SortColumn, SortOrder }), { memberId: null }),
        ])
          for (const text of [q.list.text, q.listWithCount.text, q.count.text]) for (const m of text.matchAll(/\bc\.([a-z_]+)/g)) read.add(m[1] as string);
    expect(read.size).toBeGreaterThan(15);
    expect([...read].filter((c) => !carried.has(c))).toEqual([]);
  });
});
