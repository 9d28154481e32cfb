import { describe, expect, it } from 'vitest';
import type { Reimbursement } from '../../contract';
import { groupRequests } from './requests';

const file = (Id: number, BatchId: string, CreatedAt: string, over: Partial<Reimbursement> = {}): Reimbursement => ({
  Id,
  ServiceDate: '2026-11-02',
  Amount: 100,
  Name: `receipt-${Id}.pdf`,
  Extension: 'pdf',
  type: 'application/pdf',
  Size: 1000 + Id,
  CreatedAt,
  ClaimNumber: `RB26${String(Id).padStart(6, '0')}`,
  BatchId,
  ClaimStatusID: 1,
  ClaimStatus: 'Received',
  PaidAmount: null,
  PaidDate: null,
  ...over,
});

describe('groupRequests: the list as one row per request', () => {
  it('makes one request of three files sent together: the amount once (not three times), the files in the order sent', () => {
    const bill = { ClaimNumber: 'RB26000007' };
    const rows = [
      file(3, 'a', '2026-11-30T10:00:02.000Z', bill),
      file(2, 'a', '2026-11-30T10:00:01.000Z', bill),
      file(1, 'a', '2026-11-30T10:00:00.000Z', bill),
    ];
    const requests = groupRequests(rows);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ BatchId: 'a', Amount: 100, ClaimNumber: 'RB26000007', CreatedAt: '2026-11-30T10:00:00.000Z' });
    expect(requests[0]?.Files.map((f) => f.Id)).toEqual([1, 2, 3]);
    expect(requests[0]?.Files[0]).toEqual({ Id: 1, Name: 'receipt-1.pdf', Extension: 'pdf', Size: 1001 });
  });

  it('keeps requests apart, newest first by their latest file (a file sent again later moves its request up), with their status and payment', () => {
    const rows = [
      file(5, 'old', '2026-12-01T09:00:00.000Z'), // a file of the old request sent again later
      file(4, 'new', '2026-11-30T12:00:00.000Z', { Amount: 42.5, ClaimStatusID: 8, ClaimStatus: 'Paid', PaidAmount: 40, PaidDate: '2026-12-10' }),
      file(1, 'old', '2026-11-01T09:00:00.000Z'),
    ];
    const requests = groupRequests(rows);
    expect(requests.map((r) => r.BatchId)).toEqual(['old', 'new']);
    expect(requests[0]?.Files.map((f) => f.Id)).toEqual([1, 5]);
    expect(requests[0]?.CreatedAt).toBe('2026-11-01T09:00:00.000Z');
    expect(requests[1]).toMatchObject({ Amount: 42.5, ClaimStatus: 'Paid', PaidAmount: 40, PaidDate: '2026-12-10', Files: [{ Id: 4 }] });
  });

  it('orders requests sent in the same instant by id, and answers nothing for no files', () => {
    const at = '2026-11-30T10:00:00.000Z';
    expect(groupRequests([file(1, 'x', at), file(2, 'y', at)]).map((r) => r.BatchId)).toEqual(['y', 'x']);
    expect(groupRequests([])).toEqual([]);
  });
});
