import { describe, expect, it } from 'vitest';
import { exportRequestSchema, KitGalleryApi, ROW_MAX_AMOUNT_CENTS, rowsRequestSchema } from './contract';

describe('row filters: an Amount fits the integer cents column', () => {
  it('is the largest PostgreSQL integer, and both the grid and the export use the rule', () => {
    expect(ROW_MAX_AMOUNT_CENTS).toBe(2_147_483_647);
    expect(KitGalleryApi.rows.body).toBe(rowsRequestSchema);
    expect(KitGalleryApi.exportRows.body).toBe(exportRequestSchema);
  });

  it('takes amounts up to $21,474,836.47 either way, and text that is no amount (it matches nothing)', () => {
    for (const Amount of ['21474836.47', '-21,474,836.47', '$1,000', '12,5', '', 'lots'])
      expect(rowsRequestSchema.safeParse({ Filters: { Amount } }).success, Amount).toBe(true);
  });

  it('refuses an amount past it in the grid and in the export, naming the filter', () => {
    for (const Amount of ['21474836.48', '99999999999', '-99999999999', `1${'0'.repeat(20)}`]) {
      const grid = rowsRequestSchema.safeParse({ Filters: { Amount } });
      expect(
        grid.error?.issues.map((i) => [i.path.join('.'), i.message]),
        Amount,
      ).toEqual([['Filters.Amount', 'must be an amount from -21474836.47 to 21474836.47']]);
      const exported = exportRequestSchema.safeParse({ format: 'csv', filters: { Amount }, columns: [{ id: 'Id', header: 'Id' }] });
      expect(
        exported.error?.issues.map((i) => i.path.join('.')),
        Amount,
      ).toEqual(['filters.Amount']);
    }
  });
});
