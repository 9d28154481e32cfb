import { parseMoney } from '@portal/core';

/** A chosen file as the page tells files apart (the uploader remembers an upload under the same three). */
export interface ChosenFile {
  name: string;
  size: number;
  lastModified: number;
}

export const fileIdentity = (f: ChosenFile) => `${f.name}:${f.size}:${f.lastModified}`;

/** What the page remembers of a request some of whose files were sent: until the form resets, or it no longer applies. */
export interface SentRequest {
  batchId: string;
  serviceDate: string;
  /** The amount as cents (12.5 and 12.50 are the same request). */
  amountCents: number | null;
  /** The files the server took (fileIdentity). */
  sent: readonly string[];
}

export interface SendPlan<F extends ChosenFile> {
  /** The request's BatchId: the one sent before while the request is the same, a new one otherwise. */
  batchId: string;
  /** The files to send now. */
  toSend: F[];
  /** The chosen files the server already took under batchId: not sent again. */
  alreadySent: F[];
}

const cents = (amount: string) => {
  const n = parseMoney(amount);
  return n === null ? null : Math.round(n * 100);
};

/**
 * Which files a Send sends, under which BatchId. A request some of whose files went through is still the same request
 * (same BatchId, so the files join the same bill) while its service date and amount are as they were and every file it
 * sent is still chosen: then only the files not sent yet go (the ones that failed, or ones added in their place). A
 * changed date or amount, or a sent file taken out, is a new request: a new BatchId, every chosen file sent.
 */
export function planSend<F extends ChosenFile>(
  previous: SentRequest | null,
  fields: { serviceDate: string; amount: string },
  files: readonly F[],
  newBatchId: () => string,
): SendPlan<F> {
  const chosen = new Set(files.map(fileIdentity));
  const same =
    previous !== null &&
    previous.sent.length > 0 &&
    previous.serviceDate === fields.serviceDate &&
    previous.amountCents === cents(fields.amount) &&
    previous.sent.every((id) => chosen.has(id));
  if (!same) return { batchId: newBatchId(), toSend: [...files], alreadySent: [] };
  const sent = new Set(previous.sent);
  return {
    batchId: previous.batchId,
    toSend: files.filter((f) => !sent.has(fileIdentity(f))),
    alreadySent: files.filter((f) => sent.has(fileIdentity(f))),
  };
}

/** The request as the page remembers it after a Send: its BatchId, its fields and every file the server took so far. */
export function afterSend<F extends ChosenFile>(plan: SendPlan<F>, fields: { serviceDate: string; amount: string }, sentNow: readonly F[]): SentRequest {
  return {
    batchId: plan.batchId,
    serviceDate: fields.serviceDate,
    amountCents: cents(fields.amount),
    sent: [...new Set([...plan.alreadySent, ...sentNow].map(fileIdentity))],
  };
}
