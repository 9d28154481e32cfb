import { describe, expect, it } from 'vitest';
import { evaluatePasswordPolicy, RESET_PASSWORD_PATTERN } from './passwordPolicy';
import { properCase } from './properCase';
import { fieldsMatch, isEmail, isValidDob } from './rules';
import { yesNo } from './yesNo';

describe('yesNo', () => {
  it('shows Yes or No through a translate function', () => {
    expect(yesNo(true)).toBe('Yes');
    expect(yesNo(false)).toBe('No');
    expect(yesNo(null)).toBe('No');
    expect(yesNo(true, (k) => (k === 'Yes' ? 'Sí' : 'No'))).toBe('Sí');
  });
});

describe('properCase', () => {
  it('keeps small words lowercase except the first and uppercases directions', () => {
    expect(properCase('THE LORD OF THE RINGS')).toBe('The Lord of the Rings');
    expect(properCase('123 main st nw')).toBe('123 Main St NW');
    expect(properCase('po box 12')).toBe('PO Box 12');
    expect(properCase('a tale of two cities')).toBe('A Tale of Two Cities');
    expect(properCase("mary-jane o'brien")).toBe("Mary-Jane O'Brien");
    expect(properCase('p.o. box 5 se')).toBe('P.O. Box 5 SE');
    expect(properCase('')).toBe('');
  });
});

describe('rules', () => {
  it('email pattern', () => {
    for (const ok of ['a@b.co', 'first.last+tag@example.org', 'x_y@sub.domain.com', 'a&b@example.com', "o'brien@example.ie"]) expect(isEmail(ok)).toBe(true);
    for (const bad of ['', 'a@b', 'a@@b.com', 'a b@c.com', '@b.com', 'a@b.c', 'a..b@c.com', 'a@-b.com', '.a@example.com', 'a.@example.com'])
      expect(isEmail(bad)).toBe(false);
  });

  it('compare treats empty as valid', () => {
    expect(fieldsMatch('', 'x')).toBe(true);
    expect(fieldsMatch('x', undefined)).toBe(true);
    expect(fieldsMatch('x', 'x')).toBe(true);
    expect(fieldsMatch('x', 'y')).toBe(false);
  });

  it('date of birth is after the year 1900 and before now', () => {
    const now = new Date('2025-06-01T12:00:00Z');
    expect(isValidDob('1980-05-05', now)).toBe(true);
    expect(isValidDob('1901-01-01', now)).toBe(true);
    expect(isValidDob(new Date(Date.UTC(1901, 0, 1)), now)).toBe(true);
    expect(isValidDob('1900-12-31', now)).toBe(false);
    expect(isValidDob('1900-06-15', now)).toBe(false);
    expect(isValidDob('1900-01-01', now)).toBe(false);
    expect(isValidDob('1899-12-31', now)).toBe(false);
    expect(isValidDob('2030-01-01', now)).toBe(false);
    expect(isValidDob('1980-02-30', now)).toBe(false);
    expect(isValidDob('', now)).toBe(false);
    expect(isValidDob(new Date('1950-01-01'), now)).toBe(true);
  });

  it("refuses tomorrow's date in a US evening, when the UTC day already is tomorrow", () => {
    // 6:30 pm on March 10 in Los Angeles: 01:30 UTC on March 11.
    const evening = new Date('2026-03-11T01:30:00Z');
    expect(isValidDob('2026-03-10', evening, 'America/Los_Angeles')).toBe(true);
    expect(isValidDob('2026-03-11', evening, 'America/Los_Angeles')).toBe(false);
    // In UTC (the server's zone) March 11 is today.
    expect(isValidDob('2026-03-11', evening, 'UTC')).toBe(true);
    expect(isValidDob('2026-03-12', evening, 'UTC')).toBe(false);
  });
});

describe('password policy', () => {
  const rules = [
    { Message: 'At least 8 characters', Validator: '^.{8,}$' },
    { Message: 'A digit', Validator: '\\d' },
    { Message: 'Broken rule', Validator: '(' },
  ];

  it('reports each rule and is valid only when all pass', () => {
    const result = evaluatePasswordPolicy('abcdefgh1', rules.slice(0, 2));
    expect(result.valid).toBe(true);
    expect(result.results.map((r) => r.passed)).toEqual([true, true]);
    const weak = evaluatePasswordPolicy('abc', rules.slice(0, 2));
    expect(weak.valid).toBe(false);
    expect(weak.results).toEqual([
      { Message: 'At least 8 characters', passed: false },
      { Message: 'A digit', passed: false },
    ]);
    // A malformed server pattern fails closed.
    expect(evaluatePasswordPolicy('abcdefgh1', rules).valid).toBe(false);
    expect(evaluatePasswordPolicy('', []).valid).toBe(true);
  });

  it('reset pattern', () => {
    expect(RESET_PASSWORD_PATTERN.test('abcd1234')).toBe(true);
    expect(RESET_PASSWORD_PATTERN.test('abcd£123')).toBe(true);
    expect(RESET_PASSWORD_PATTERN.test('abcdefgh')).toBe(false);
    expect(RESET_PASSWORD_PATTERN.test('abc 1234')).toBe(false);
    expect(RESET_PASSWORD_PATTERN.test('a1')).toBe(false);
  });
});
