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
  /**
   * Each file's IdempotencyKey in this request (fileIdentity → key), every file sent or tried: a Send again sends a file
   * with its key, so a file whose create's answer was lost (stored, though the page saw a failure) is stored once.
   */
  keys: Readonly<Record<string, string>>;
}

export interface SendPlan<F extends ChosenFile> {
  /** The request's BatchId: the one sent before while the request is the same, a new one otherwise. */
  batchId: string;
  /** The files to send now. */
  toSend: F[];
  /** The chosen files the server already took under batchId: not sent again. */
  alreadySent: F[];
  /** The IdempotencyKey of each chosen file (fileIdentity → key): the one it had in this request, a new one otherwise. */
  keys: Record<string, string>;
}

const cents = (amount: string) => {
  const n = parseMoney(amount);
  return n === null ? null : Math.round(n * 100);
};

/**
 * Which files a Send sends, under which BatchId and IdempotencyKeys. A request a Send left unfinished (a file not sent)
 * is still the same request (same BatchId, so the files join the same bill) while its service date and amount are as
 * they were and every file it sent is still chosen: then only the files not sent yet go (the ones that failed, or ones
 * added in their place), each with the key it had, so a file whose answer was lost on the network (the server stored
 * it, the page saw a failure) is answered, not stored again; also when no file of the request was seen to go through. A
 * changed date or amount, or a sent file taken out, is a new request: a new BatchId, new keys, every chosen file sent.
 * `newId` makes a BatchId and each new key (a UUID).
 */
export function planSend<F extends ChosenFile>(
  previous: SentRequest | null,
  fields: { serviceDate: string; amount: string },
  files: readonly F[],
  newId: () => string,
): SendPlan<F> {
  const chosen = new Set(files.map(fileIdentity));
  const same =
    previous !== null &&
    previous.serviceDate === fields.serviceDate &&
    previous.amountCents === cents(fields.amount) &&
    previous.sent.every((id) => chosen.has(id));
  const batchId = same ? previous.batchId : newId();
  const keys: Record<string, string> = {};
  for (const f of files) {
    const id = fileIdentity(f);
    keys[id] ??= (same ? previous.keys[id] : undefined) ?? newId();
  }
  const sent = new Set(same ? previous.sent : []);
  return {
    batchId,
    toSend: files.filter((f) => !sent.has(fileIdentity(f))),
    alreadySent: files.filter((f) => sent.has(fileIdentity(f))),
    keys,
  };
}

/** The request as the page remembers it after a Send: its BatchId, its fields, every file the server took so far and the files' keys. */
export function afterSend<F extends ChosenFile>(plan: SendPlan<F>, fields: { serviceDate: string; amount: string }, sentNow: readonly F[]): SentRequest {
  return {
    batchId: plan.batchId,
    serviceDate: fields.serviceDate,
    amountCents: cents(fields.amount),
    sent: [...new Set([...plan.alreadySent, ...sentNow].map(fileIdentity))],
    keys: { ...plan.keys },
  };
}
