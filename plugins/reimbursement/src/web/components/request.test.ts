import { describe, expect, it } from 'vitest';
import { afterSend, type ChosenFile, planSend } from './request';

const file = (name: string, size = 100, lastModified = 1): ChosenFile => ({ name, size, lastModified });
const a = file('a.pdf');
const b = file('b.pdf');
const c = file('c.pdf');
const fields = { serviceDate: '2026-10-01', amount: '42.50' };
const ids = () => {
  let n = 0;
  return () => `batch-${++n}`;
};

describe('a Send after some files of the request failed', () => {
  it('sends only the files that failed, under the same BatchId, and names the ones already sent', () => {
    const next = ids();
    const first = planSend(null, fields, [a, b, c], next);
    expect(first).toEqual({ batchId: 'batch-1', toSend: [a, b, c], alreadySent: [] });
    // a and c went through, b failed.
    const remembered = afterSend(first, fields, [a, c]);
    const retry = planSend(remembered, fields, [a, b, c], next);
    expect(retry).toEqual({ batchId: 'batch-1', toSend: [b], alreadySent: [a, c] });
  });

  it('keeps the request across several retries: each sends what is still not sent', () => {
    const next = ids();
    const first = planSend(null, fields, [a, b, c], next);
    const second = planSend(afterSend(first, fields, [a]), fields, [a, b, c], next);
    expect(second.toSend).toEqual([b, c]);
    const third = planSend(afterSend(second, fields, [c]), fields, [a, b, c], next);
    expect(third).toEqual({ batchId: 'batch-1', toSend: [b], alreadySent: [a, c] });
  });

  it('is the same request for the same amount written another way, and sends a file added in place of the failed one with it', () => {
    const next = ids();
    const first = planSend(null, fields, [a, b], next);
    const remembered = afterSend(first, fields, [a]);
    const replaced = planSend(remembered, { ...fields, amount: '42.5' }, [a, c], next);
    expect(replaced).toEqual({ batchId: 'batch-1', toSend: [c], alreadySent: [a] });
  });

  it('is a new request (new BatchId, every file sent) once the service date or the amount changes', () => {
    const next = ids();
    const remembered = afterSend(planSend(null, fields, [a, b], next), fields, [a]);
    expect(planSend(remembered, { ...fields, serviceDate: '2026-10-02' }, [a, b], next)).toEqual({ batchId: 'batch-2', toSend: [a, b], alreadySent: [] });
    expect(planSend(remembered, { ...fields, amount: '42.51' }, [a, b], next)).toEqual({ batchId: 'batch-3', toSend: [a, b], alreadySent: [] });
  });

  it('is a new request once a file it sent is no longer chosen, or when a chosen file only shares its name with a sent one', () => {
    const next = ids();
    const remembered = afterSend(planSend(null, fields, [a, b], next), fields, [a]);
    expect(planSend(remembered, fields, [b], next)).toEqual({ batchId: 'batch-2', toSend: [b], alreadySent: [] });
    const otherA = file('a.pdf', 100, 2);
    expect(planSend(remembered, fields, [otherA, b], next)).toEqual({ batchId: 'batch-3', toSend: [otherA, b], alreadySent: [] });
  });

  it('starts a new request when nothing was sent before (nothing is on a bill yet)', () => {
    const next = ids();
    const remembered = afterSend(planSend(null, fields, [a, b], next), fields, []);
    expect(planSend(remembered, fields, [a, b], next)).toEqual({ batchId: 'batch-2', toSend: [a, b], alreadySent: [] });
  });
});
