import { describe, expect, it, vi } from 'vitest';
import { downloadReport } from './report';

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
