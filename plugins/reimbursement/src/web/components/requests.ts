import type { Reimbursement } from '../../contract';

/** A file of a request, as the list shows it under its request. */
export interface RequestFile {
  Id: number;
  Name: string;
  Extension: string;
  Size: number;
}

/**
 * One reimbursement request (the files sent under one BatchId, one bill): its service date and amount (the request's,
 * not a sum of its files'), its bill with the bill's status and payment, and its files.
 */
export interface ReimbursementRequest {
  BatchId: string;
  ServiceDate: string;
  Amount: number;
  /** When its first file was sent. */
  CreatedAt: string;
  ClaimNumber: string | null;
  ClaimStatusID: number | null;
  ClaimStatus: string | null;
  PaidAmount: number | null;
  PaidDate: string | null;
  /** In the order they were sent. */
  Files: RequestFile[];
}

/**
 * The list's files (one row per file, newest first) as requests, one per BatchId: newest request first (by its latest
 * file), its files in the order they were sent. A request's files share its date, amount and bill; its status and
 * payment are its latest file's answer.
 */
export function groupRequests(rows: readonly Reimbursement[]): ReimbursementRequest[] {
  const byBatch = new Map<string, { request: ReimbursementRequest; latest: string; latestId: number }>();
  for (const r of rows) {
    const file: RequestFile = { Id: r.Id, Name: r.Name, Extension: r.Extension, Size: r.Size };
    const found = byBatch.get(r.BatchId);
    if (!found) {
      byBatch.set(r.BatchId, {
        request: {
          BatchId: r.BatchId,
          ServiceDate: r.ServiceDate,
          Amount: r.Amount,
          CreatedAt: r.CreatedAt,
          ClaimNumber: r.ClaimNumber,
          ClaimStatusID: r.ClaimStatusID,
          ClaimStatus: r.ClaimStatus,
          PaidAmount: r.PaidAmount,
          PaidDate: r.PaidDate,
          Files: [file],
        },
        latest: r.CreatedAt,
        latestId: r.Id,
      });
      continue;
    }
    found.request.Files.push(file);
    if (r.CreatedAt < found.request.CreatedAt) found.request.CreatedAt = r.CreatedAt;
    if (r.CreatedAt > found.latest || (r.CreatedAt === found.latest && r.Id > found.latestId)) {
      found.latest = r.CreatedAt;
      found.latestId = r.Id;
    }
  }
  const all = [...byBatch.values()];
  for (const g of all) g.request.Files.sort((a, b) => a.Id - b.Id);
  all.sort((a, b) => (a.latest === b.latest ? b.latestId - a.latestId : a.latest < b.latest ? 1 : -1));
  return all.map((g) => g.request);
}
