import { describe, expect, it } from 'vitest';
import { billFilterDefaults, billFilterParams, billFiltersFromParams, billSearch } from './billFilters';

const NOW = new Date(2026, 7, 31);
const DEFAULTS = billFilterDefaults(NOW);

describe("the bills list's filters in the address", () => {
  it('defaults to bills received in the last 6 months, and the plain address is that view', () => {
    expect(DEFAULTS).toEqual({ from: '2026-02-28', to: '', status: '', type: '', number: '', payment: 'any' });
    const form = billFiltersFromParams(DEFAULTS, DEFAULTS);
    expect(form).toEqual({ ReceivedDateFrom: '02/28/2026', ReceivedDateTo: '', ClaimStatusID: null, BillTypeID: null, ClaimNumber: '', Payment: 'any' });
    // Every parameter equals its default, so the kit leaves them all out of the address.
    expect(billFilterParams(form)).toEqual(DEFAULTS);
  });

  it('writes a filtered form as short parameters, a cleared From date included, and reads it back', () => {
    const form = { ReceivedDateFrom: '', ReceivedDateTo: '3/1/2026', ClaimStatusID: 8, BillTypeID: 2, ClaimNumber: 'CL265', Payment: 'paid' as const };
    const params = billFilterParams(form);
    expect(params).toEqual({ from: '', to: '2026-03-01', status: '8', type: '2', number: 'CL265', payment: 'paid' });
    expect(billFiltersFromParams(params, DEFAULTS)).toEqual({ ...form, ReceivedDateTo: '03/01/2026' });
    expect(billSearch(billFiltersFromParams(params, DEFAULTS))).toEqual({
      ReceivedDateFrom: null,
      ReceivedDateTo: '2026-03-01',
      ClaimStatusID: 8,
      BillTypeID: 2,
      ClaimNumber: 'CL265',
      IsPaid: true,
    });
  });

  it('takes the default for a value an edited or old address cannot mean', () => {
    const read = (patch: Partial<typeof DEFAULTS>) => billFiltersFromParams({ ...DEFAULTS, ...patch }, DEFAULTS);
    expect(read({ from: '2026-02-30' }).ReceivedDateFrom).toBe('02/28/2026');
    expect(read({ from: '02/01/2026' }).ReceivedDateFrom).toBe('02/28/2026');
    expect(read({ to: 'soon' }).ReceivedDateTo).toBe('');
    expect(read({ status: 'x' }).ClaimStatusID).toBeNull();
    expect(read({ status: '0' }).ClaimStatusID).toBeNull();
    expect(read({ type: '-2' }).BillTypeID).toBeNull();
    expect(read({ payment: 'PAID' }).Payment).toBe('any');
    expect(read({ payment: 'unpaid' }).Payment).toBe('unpaid');
  });
});
