import { describe, expect, it } from 'vitest';
import { formatCheckValue, money } from './format';

const t = (key: string) => key;

describe("a quote's money and check values in the page's language", () => {
  it('money is US dollars in both languages ($1,234.56), never the European "1234,56 US$"', () => {
    expect(money(123456, 'en')).toBe('$1,234.56');
    expect(money(123456, 'es')).toBe('$1,234.56');
    expect(money(123456, 'es-US')).toBe('$1,234.56');
    expect(formatCheckValue({ kind: 'money', cents: 50_000_000 }, t, 'es')).toBe('$500,000.00');
    expect(formatCheckValue({ kind: 'money', cents: 50_000_000 }, t, 'en')).toBe('$500,000.00');
  });

  it("a check's date is MM/DD/YYYY in both languages, as the check's own text writes it; anything else as it came", () => {
    expect(formatCheckValue({ kind: 'date', date: '2024-05-01' }, t, 'es')).toBe('05/01/2024');
    expect(formatCheckValue({ kind: 'date', date: '2024-05-01' }, t, 'en')).toBe('05/01/2024');
    expect(formatCheckValue({ kind: 'date', date: 'someday' }, t, 'en')).toBe('someday');
  });
});
