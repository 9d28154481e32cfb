import { ClaimStatus } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { type Claim, claimSearchSchema } from '../../contract';
import { allPages, duplicateFilters, historyFilters, possibleDuplicates } from './history';

const bill = (over: Partial<Claim> = {}): Claim => ({
  ClaimID: 100,
  ClaimNumber: 'A-1',
  PayeeName: 'Valley Clinic',
  PayeeID: 7,
  ClaimStatusID: ClaimStatus.Received,
  DisplayStatusID: ClaimStatus.Received,
  BillTypeID: 1,
  ClaimTypeID: 1,
  BilledAmount: 125.4,
  SubmittedUNCAmount: null,
  ServiceDateFrom: '2026-11-01',
  ServiceDateTo: null,
  ReceivedDate: '2026-11-20',
  BillReviewReceivedDate: null,
  PaidDate: null,
  PaidAmount: null,
  CheckNumber: null,
  MemberID: 3,
  MemberNumber: 'M3',
  MemberName: 'Pat Doe',
  Version: 1,
  ...over,
});
const now = new Date(2026, 10, 30);

describe("a bill's history", () => {
  it("asks for the member's bills received in the last 10 years, and only the payee's when chosen", () => {
    expect(historyFilters(bill(), false, now)).toEqual({ MemberID: 3, ReceivedDateFrom: '2016-11-30' });
    expect(historyFilters(bill(), true, now)).toEqual({ MemberID: 3, ReceivedDateFrom: '2016-11-30', PayeeID: 7 });
    // A payee the member typed has no id to filter on: the whole history.
    expect(historyFilters(bill({ PayeeID: null }), true, now)).toEqual({ MemberID: 3, ReceivedDateFrom: '2016-11-30' });
  });

  it('goes back 10 years to the last day of February from a leap day', () => {
    const leapDay = new Date(2028, 1, 29, 12);
    expect(historyFilters(bill(), false, leapDay).ReceivedDateFrom).toBe('2018-02-28');
    expect(duplicateFilters(bill(), leapDay).ReceivedDateFrom).toBe('2018-02-28');
  });

  it('searches duplicates on the same first service day, with a filter the contract accepts', () => {
    const f = duplicateFilters(bill(), now);
    expect(f).toEqual({ MemberID: 3, ReceivedDateFrom: '2016-11-30', PayeeID: 7, ServiceDateFrom: '2026-11-01', ServiceDateTo: '2026-11-01' });
    expect(claimSearchSchema.safeParse({ ...f, PageSize: 100 }).success).toBe(true);
  });

  it('flags other bills of the same member, payee, first service day and amount, oldest first', () => {
    const me = bill();
    const found = possibleDuplicates(me, [
      me,
      bill({ ClaimID: 90 }),
      bill({ ClaimID: 80, BilledAmount: 125.4000001 }),
      bill({ ClaimID: 81, BilledAmount: 125.41 }),
      bill({ ClaimID: 82, ServiceDateFrom: '2026-11-02' }),
      bill({ ClaimID: 83, PayeeID: 8, PayeeName: 'Other' }),
      bill({ ClaimID: 84, MemberID: 4 }),
      bill({ ClaimID: 85, ClaimStatusID: ClaimStatus.Void }),
    ]);
    expect(found.map((c) => c.ClaimID)).toEqual([80, 90]);
  });

  it('matches a payee the member typed by its name, ignoring case and spaces, and never a typed one to a shared one', () => {
    const typed = bill({ PayeeID: null, PayeeName: 'Dr. Smith' });
    const found = possibleDuplicates(typed, [
      bill({ ClaimID: 91, PayeeID: null, PayeeName: ' dr. smith ' }),
      bill({ ClaimID: 92, PayeeID: 5, PayeeName: 'Dr. Smith' }),
      bill({ ClaimID: 93, PayeeID: null, PayeeName: 'Dr. Smyth' }),
    ]);
    expect(found.map((c) => c.ClaimID)).toEqual([91]);
  });
});

describe('the duplicate check reads every page of its search', () => {
  const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => bill({ ClaimID: from + i }));
  it('reads on until the count the search answered, past the first page', async () => {
    const asked: number[] = [];
    const all = await allPages(async (page) => {
      asked.push(page);
      return { Items: rows(page * 100, page < 2 ? 100 : 30), ItemCount: 230 };
    }, 100);
    expect(asked).toEqual([0, 1, 2]);
    expect(all.map((c) => c.ClaimID)).toEqual(Array.from({ length: 230 }, (_, i) => i));
  });
  it('stops at a short page, and after at most the pages it may read', async () => {
    let asked = 0;
    const short = async () => {
      asked++;
      return { Items: rows(0, 3), ItemCount: 3 };
    };
    expect(await allPages(short, 100)).toHaveLength(3);
    expect(asked).toBe(1);
    asked = 0;
    const endless = async () => {
      asked++;
      return { Items: rows(0, 100), ItemCount: 1_000_000 };
    };
    await allPages(endless, 100, 4);
    expect(asked).toBe(4);
  });
});
