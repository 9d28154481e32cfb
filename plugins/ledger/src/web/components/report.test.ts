import { describe, expect, it, vi } from 'vitest';
import { downloadReport, sendRefusalOf } from './report';

describe("the report's download (spec 02 section 9: 'Report generated' on success)", () => {
  it('saves the file, then says it was generated, once', async () => {
    const blob = new Blob(['%PDF']);
    const order: string[] = [];
    const save = vi.fn(() => order.push('save'));
    const generated = vi.fn(() => order.push('generated'));
    expect(await downloadReport(async () => ({ blob, fileName: 'ledger.pdf' }), save, generated)).toBe(true);
    expect(save).toHaveBeenCalledWith(blob, 'ledger.pdf');
    expect(generated).toHaveBeenCalledTimes(1);
    expect(order).toEqual(['save', 'generated']);
  });
  it('a failed call is caught (no unhandled rejection) and adds no toast of its own: the client showed the server’s message', async () => {
    const save = vi.fn();
    const generated = vi.fn();
    await expect(downloadReport(() => Promise.reject(new Error('502')), save, generated)).resolves.toBe(false);
    expect(save).not.toHaveBeenCalled();
    expect(generated).not.toHaveBeenCalled();
  });
});

describe("report/send's refusals, told apart by the answer's data (its text is in the user's language)", () => {
  const refused = (status: number, Data: unknown) => Object.assign(new Error('refused'), { status, body: { HasError: true, MsgText: '…', Data } });
  it('a header someone changed since the page loaded it (409, HeaderChanged): the page says so and reads the header again', () => {
    expect(sendRefusalOf(refused(409, { HeaderChanged: true }))).toBe('headerChanged');
  });
  it('incomplete records and a send already waiting for the payer keep their own warnings', () => {
    expect(sendRefusalOf(refused(400, { Incomplete: true }))).toBe('incomplete');
    expect(sendRefusalOf(refused(409, { Sending: true }))).toBe('inFlight');
  });
  it('a payer that already holds a different report of the period (409, OtherReport) has its own warning', () => {
    expect(sendRefusalOf(refused(409, { OtherReport: true }))).toBe('otherReport');
  });
  it('anything else (a failing payer, no answer, a flag that is not true) is a failed send', () => {
    expect(sendRefusalOf(refused(502, null))).toBe('error');
    expect(sendRefusalOf(refused(409, { HeaderChanged: 'yes' }))).toBe('error');
    expect(sendRefusalOf(new Error('network'))).toBe('error');
    expect(sendRefusalOf(null)).toBe('error');
  });
});
