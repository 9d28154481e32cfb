import { describe, expect, it } from 'vitest';
import { quotaProblem } from './quota-input';

const row = (min: string, max: string) => ({ MonthNumber: 1, min, max });

describe('quota form rows', () => {
  it('accepts both empty, or whole numbers with the minimum at most the maximum', () => {
    expect(quotaProblem(row('', ''))).toBeNull();
    expect(quotaProblem(row(' 0 ', '0'))).toBeNull();
    expect(quotaProblem(row('5', '10'))).toBeNull();
  });
  it('names the problem of a bad row', () => {
    expect(quotaProblem(row('5', ''))).toBe('quotas.errors.both');
    expect(quotaProblem(row('-1', '3'))).toBe('quotas.errors.whole');
    expect(quotaProblem(row('1.5', '3'))).toBe('quotas.errors.whole');
    expect(quotaProblem(row('1', '100001'))).toBe('quotas.errors.tooLarge');
    expect(quotaProblem(row('11', '10'))).toBe('quotas.errors.order');
  });
});
