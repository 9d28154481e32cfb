import { describe, expect, it } from 'vitest';
import { createSchema } from '../../contract';
import { afterSend, type ChosenFile, fileIdentity, planSend } from './request';

const file = (name: string, size = 100, lastModified = 1): ChosenFile => ({ name, size, lastModified });
const a = file('a.pdf');
const b = file('b.pdf');
const c = file('c.pdf');
const fields = { serviceDate: '2026-10-01', amount: '42.50' };
/** Ids as the page makes them (a UUID each), numbered so a test can tell them apart. */
const ids = () => {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
};
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const keyOf = (plan: { keys: Record<string, string> }, f: ChosenFile) => plan.keys[fileIdentity(f)];

describe('a Send after some files of the request failed', () => {
  it('sends only the files that failed, under the same BatchId, and names the ones already sent', () => {
    const next = ids();
    const first = planSend(null, fields, [a, b, c], next);
    expect(first).toMatchObject({ batchId: id(1), toSend: [a, b, c], alreadySent: [] });
    // a and c went through, b failed.
    const remembered = afterSend(first, fields, [a, c]);
    const retry = planSend(remembered, fields, [a, b, c], next);
    expect(retry).toMatchObject({ batchId: id(1), toSend: [b], alreadySent: [a, c] });
  });

  it('keeps the request across several retries: each sends what is still not sent', () => {
    const next = ids();
    const first = planSend(null, fields, [a, b, c], next);
    const second = planSend(afterSend(first, fields, [a]), fields, [a, b, c], next);
    expect(second.toSend).toEqual([b, c]);
    const third = planSend(afterSend(second, fields, [c]), fields, [a, b, c], next);
    expect(third).toMatchObject({ batchId: id(1), toSend: [b], alreadySent: [a, c] });
  });

  it('is the same request for the same amount written another way, and sends a file added in place of the failed one with it', () => {
    const next = ids();
    const first = planSend(null, fields, [a, b], next);
    const remembered = afterSend(first, fields, [a]);
    const replaced = planSend(remembered, { ...fields, amount: '42.5' }, [a, c], next);
    expect(replaced).toMatchObject({ batchId: id(1), toSend: [c], alreadySent: [a] });
  });

  it('is a new request (new BatchId, every file sent) once the service date or the amount changes', () => {
    const next = ids();
    const remembered = afterSend(planSend(null, fields, [a, b], next), fields, [a]);
    const [firstBatch, secondBatch] = [
      planSend(remembered, { ...fields, serviceDate: '2026-10-02' }, [a, b], next),
      planSend(remembered, { ...fields, amount: '42.51' }, [a, b], next),
    ];
    expect(firstBatch).toMatchObject({ toSend: [a, b], alreadySent: [] });
    expect(secondBatch).toMatchObject({ toSend: [a, b], alreadySent: [] });
    expect(new Set([remembered.batchId, firstBatch.batchId, secondBatch.batchId]).size).toBe(3);
  });

  it('is a new request once a file it sent is no longer chosen, or when a chosen file only shares its name with a sent one', () => {
    const next = ids();
    const remembered = afterSend(planSend(null, fields, [a, b], next), fields, [a]);
    const withoutA = planSend(remembered, fields, [b], next);
    expect(withoutA).toMatchObject({ toSend: [b], alreadySent: [] });
    expect(withoutA.batchId).not.toBe(remembered.batchId);
    const otherA = file('a.pdf', 100, 2);
    const withOtherA = planSend(remembered, fields, [otherA, b], next);
    expect(withOtherA).toMatchObject({ toSend: [otherA, b], alreadySent: [] });
    expect(withOtherA.batchId).not.toBe(remembered.batchId);
  });
});

describe('each file of a request has one IdempotencyKey, sent again with every retry of it (an answer lost on the network stores nothing twice)', () => {
  it('gives each chosen file its own key, a valid IdempotencyKey of the create', () => {
    const plan = planSend(null, fields, [a, b], ids());
    expect(keyOf(plan, a)).toBeDefined();
    expect(keyOf(plan, a)).not.toBe(keyOf(plan, b));
    expect(keyOf(plan, a)).not.toBe(plan.batchId);
    const body = {
      name: 'a.pdf',
      ext: 'pdf',
      UploadId: id(99),
      BatchId: plan.batchId,
      IdempotencyKey: keyOf(plan, a),
      reimbursement: { FileName: 'a.pdf', Extension: 'pdf', ServiceDate: fields.serviceDate, Amount: fields.amount },
    };
    expect(createSchema.parse(body).IdempotencyKey).toBe(keyOf(plan, a));
  });

  it('sends a failed file again with the key it had: a create whose answer was lost is answered, not stored again', () => {
    const next = ids();
    const first = planSend(null, fields, [a, b], next);
    // a went through; b's create was stored but its answer was lost, so the page saw b fail.
    const retry = planSend(afterSend(first, fields, [a]), fields, [a, b], next);
    expect(retry.toSend).toEqual([b]);
    expect(keyOf(retry, b)).toBe(keyOf(first, b));
  });

  it('keeps the BatchId and the keys when no file was seen to go through: a lost answer may have made the bill', () => {
    const next = ids();
    const first = planSend(null, fields, [a, b], next);
    const retry = planSend(afterSend(first, fields, []), fields, [a, b], next);
    expect(retry).toEqual({ batchId: first.batchId, toSend: [a, b], alreadySent: [], keys: first.keys });
  });

  it('keeps the keys across several retries, and gives a file added in place of a failed one a key of its own', () => {
    const next = ids();
    const first = planSend(null, fields, [a, b], next);
    const second = planSend(afterSend(first, fields, []), fields, [a, b, c], next);
    expect([keyOf(second, a), keyOf(second, b)]).toEqual([keyOf(first, a), keyOf(first, b)]);
    expect(Object.values(first.keys)).not.toContain(keyOf(second, c));
    const third = planSend(afterSend(second, fields, [a]), fields, [a, b, c], next);
    expect(third.keys).toEqual(second.keys);
  });

  it('makes new keys for a new request (another date or amount, a sent file taken out): its files are another create', () => {
    const next = ids();
    const first = planSend(null, fields, [a, b], next);
    const remembered = afterSend(first, fields, [a]);
    for (const changed of [
      planSend(remembered, { ...fields, amount: '42.51' }, [a, b], next),
      planSend(remembered, { ...fields, serviceDate: '2026-10-02' }, [a, b], next),
      planSend(remembered, fields, [b], next),
    ]) {
      expect(changed.batchId).not.toBe(first.batchId);
      expect(Object.values(changed.keys).some((k) => Object.values(first.keys).includes(k))).toBe(false);
    }
  });
});
