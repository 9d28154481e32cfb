import { describe, expect, it } from 'vitest';
import { firstInvalidField, invalidFields, problemCount, quotaErrorId, quotaProblem } from './quota-input';

const row = (min: string, max: string, MonthNumber = 1) => ({ MonthNumber, min, max });

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

describe('quota form: which inputs are invalid, and where focus goes on a refused Save', () => {
  it('marks the inputs the problem is in, and none of a month that is fine', () => {
    expect(invalidFields(row('', ''))).toEqual([]);
    expect(invalidFields(row('5', '10'))).toEqual([]);
    expect(invalidFields(row('5', ''))).toEqual(['max']);
    expect(invalidFields(row(' ', '7'))).toEqual(['min']);
    expect(invalidFields(row('x', '3'))).toEqual(['min']);
    expect(invalidFields(row('2', '3.5'))).toEqual(['max']);
    expect(invalidFields(row('-1', 'x'))).toEqual(['min', 'max']);
    expect(invalidFields(row('1', '100001'))).toEqual(['max']);
    expect(invalidFields(row('11', '10'))).toEqual(['min', 'max']);
  });

  it('counts the months that cannot be saved', () => {
    expect(problemCount([row('', '', 1), row('5', '10', 2)])).toBe(0);
    expect(problemCount([row('5', '', 1), row('5', '10', 2), row('11', '10', 3)])).toBe(2);
  });

  it('focuses the first invalid input in table order, month by month and minimum first; nothing when all are fine', () => {
    expect(firstInvalidField([row('', '', 1), row('5', '10', 2)])).toBeNull();
    expect(firstInvalidField([row('1', '2', 1), row('4', '', 2), row('x', '1', 3)])).toEqual({ MonthNumber: 2, field: 'max' });
    expect(firstInvalidField([row('1', '2', 1), row('9', '3', 2)])).toEqual({ MonthNumber: 2, field: 'min' });
  });

  it("names each month's error text apart, for aria-describedby", () => {
    expect(quotaErrorId(3)).toBe('quota-error-3');
    expect(quotaErrorId(3)).not.toBe(quotaErrorId(12));
  });
});
