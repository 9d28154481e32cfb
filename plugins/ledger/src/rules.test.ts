import { parseMoney } from '@portal/core';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  centsOf,
  checkBalance,
  checkLedgerEdit,
  checkLedgerEntry,
  DefaultRange,
  LedgerMessages,
  latestToday,
  parseAmount,
  todayUtc,
} from './rules';

const today = '2026-03-31';
const ok = { DateCreated: today, TransactionTypeID: 1, Amount: '12.34', Description: 'Visit' };

describe('checkLedgerEntry', () => {
  it('checks the five rules in the spec order', () => {
    const all = { DateCreated: '2026-04-01', TransactionTypeID: null, Amount: '', Description: '' };
    expect(checkLedgerEntry(all, today)).toEqual({ ok: false, message: LedgerMessages.futureDate });
    expect(checkLedgerEntry({ ...all, DateCreated: today }, today)).toEqual({ ok: false, message: 'Please select transaction type' });
    expect(checkLedgerEntry({ ...all, DateCreated: today, TransactionTypeID: 2 }, today)).toEqual({ ok: false, message: 'Please enter amount' });
    expect(checkLedgerEntry({ ...all, DateCreated: today, TransactionTypeID: 2, Amount: 'x' }, today)).toEqual({
      ok: false,
      message: 'Please enter description of service',
    });
    expect(checkLedgerEntry({ ...ok, Amount: '1O.00' }, today)).toEqual({ ok: false, message: 'Amount has to be number' });
  });
  it('keeps the absolute value in cents, takes today for an empty date and the type as text', () => {
    expect(checkLedgerEntry({ ...ok, Amount: '-$1,234.56', DateCreated: '', TransactionTypeID: '3' }, today)).toEqual({
      ok: true,
      entry: { DateCreated: today, TransactionTypeID: 3, AmountCents: 123456 },
    });
  });
  it('refuses unknown types, impossible days, fractions of a cent and zero', () => {
    expect(checkLedgerEntry({ ...ok, TransactionTypeID: 4 }, today)).toMatchObject({ message: LedgerMessages.type });
    expect(checkLedgerEntry({ ...ok, DateCreated: '2026-02-30' }, today)).toMatchObject({ message: LedgerMessages.invalidDate });
    expect(checkLedgerEntry({ ...ok, Amount: 1.005 }, today)).toMatchObject({ message: LedgerMessages.amountCents });
    expect(checkLedgerEntry({ ...ok, Amount: 0 }, today)).toMatchObject({ message: LedgerMessages.amount });
  });
});

describe('checkLedgerEdit (spec 02 section 5: an edit repeats the amount and future-date checks)', () => {
  it('does not ask for a description or a type', () => {
    expect(checkLedgerEdit({ ...ok, Description: '', TransactionTypeID: null }, today)).toEqual({
      ok: true,
      entry: { DateCreated: today, AmountCents: 1234 },
    });
  });
  it('repeats the future-date check, then the amount checks, in that order', () => {
    expect(checkLedgerEdit({ DateCreated: '2026-04-01', Amount: '' }, today)).toEqual({ ok: false, message: LedgerMessages.futureDate });
    expect(checkLedgerEdit({ DateCreated: '2026-02-30', Amount: '' }, today)).toEqual({ ok: false, message: LedgerMessages.invalidDate });
    expect(checkLedgerEdit({ DateCreated: today, Amount: ' ' }, today)).toEqual({ ok: false, message: LedgerMessages.amount });
    expect(checkLedgerEdit({ DateCreated: today, Amount: 'x' }, today)).toEqual({ ok: false, message: LedgerMessages.amountNumber });
    expect(checkLedgerEdit({ DateCreated: today, Amount: 1.005 }, today)).toMatchObject({ message: LedgerMessages.amountCents });
    expect(checkLedgerEdit({ DateCreated: today, Amount: 0 }, today)).toMatchObject({ message: LedgerMessages.amount });
  });
  it('keeps the absolute value in cents; an empty date keeps the stored one (null)', () => {
    expect(checkLedgerEdit({ DateCreated: '', Amount: '-$1,234.56' }, today)).toEqual({ ok: true, entry: { DateCreated: null, AmountCents: 123456 } });
    expect(checkLedgerEdit({ Amount: 5 }, today)).toEqual({ ok: true, entry: { DateCreated: null, AmountCents: 500 } });
  });
});

describe('the future-date bound of the server: the latest day anywhere on earth (UTC+14)', () => {
  it('is the UTC day until 10:00 UTC, then the next day', () => {
    expect(latestToday(new Date('2026-03-31T09:59:59Z'))).toBe('2026-03-31');
    expect(latestToday(new Date('2026-03-31T10:00:00Z'))).toBe('2026-04-01');
    expect(latestToday(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
  });
  it('lets a member in UTC+10 enter their own today, while it is still yesterday in UTC; the day after stays refused', () => {
    // 2026-04-01 08:00 in Sydney (UTC+10) is 2026-03-31 22:00 UTC.
    const now = new Date('2026-03-31T22:00:00Z');
    expect(todayUtc(now)).toBe('2026-03-31');
    expect(checkLedgerEntry({ ...ok, DateCreated: '2026-04-01' }, todayUtc(now))).toMatchObject({ message: LedgerMessages.futureDate });
    expect(checkLedgerEntry({ ...ok, DateCreated: '2026-04-01' }, latestToday(now))).toMatchObject({ ok: true, entry: { DateCreated: '2026-04-01' } });
    expect(checkLedgerEdit({ ...ok, DateCreated: '2026-04-01' }, latestToday(now))).toMatchObject({ ok: true });
    expect(checkLedgerEntry({ ...ok, DateCreated: '2026-04-02' }, latestToday(now))).toEqual({ ok: false, message: LedgerMessages.futureDate });
    expect(checkLedgerEdit({ ...ok, DateCreated: '2026-04-02' }, latestToday(now))).toEqual({ ok: false, message: LedgerMessages.futureDate });
  });
  it('keeps the rules in their order with the wider bound, and stores an empty date as the day the caller names', () => {
    const all = { DateCreated: '2026-04-02', TransactionTypeID: null, Amount: '', Description: '' };
    expect(checkLedgerEntry(all, '2026-04-01', '2026-03-31')).toEqual({ ok: false, message: LedgerMessages.futureDate });
    expect(checkLedgerEntry({ ...all, DateCreated: '2026-04-01' }, '2026-04-01', '2026-03-31')).toEqual({ ok: false, message: LedgerMessages.type });
    expect(checkLedgerEntry({ ...ok, DateCreated: '' }, '2026-04-01', '2026-03-31')).toMatchObject({ ok: true, entry: { DateCreated: '2026-03-31' } });
  });
});

describe('money and days', () => {
  it('parses typed amounts and converts to exact cents', () => {
    expect(parseAmount(' $1,000.5 ')).toBe(1000.5);
    expect(Number.isNaN(parseAmount('1e3'))).toBe(true);
    expect(centsOf(0.1 + 0.2)).toBe(30);
    expect(centsOf(19.99)).toBe(1999);
    expect(centsOf(1.234)).toBeNull();
  });
  it('reads a decimal comma as the decimal point and other commas as thousands, as parseMoney does (spec 02 section 5)', () => {
    expect(parseAmount('12,5')).toBe(12.5);
    expect(parseAmount('12,50')).toBe(12.5);
    expect(parseAmount('$12,50')).toBe(12.5);
    expect(parseAmount('1,000.50')).toBe(1000.5);
    expect(parseAmount('1,000')).toBe(1000);
    // Both marks: the last is the decimal one, so a Spanish-style initial balance is not read as $1.50.
    expect(parseAmount('1.500,00')).toBe(1500);
    expect(parseAmount('1.5,00')).toBeNaN();
    expect(parseAmount('-$1,234.56')).toBe(-1234.56);
    expect(parseAmount('+12,5')).toBe(12.5);
    for (const text of ['12,50', '1,000.50', '-$1,234.56', '7', '0,05']) expect(parseAmount(text), text).toBe(parseMoney(text));
    for (const text of ['', '$', ',', '12.5.1', '12 50', '$-5', '12$']) expect(Number.isNaN(parseAmount(text)), text).toBe(true);
  });
  it('stores a decimal-comma amount as its cents, not 100 times them', () => {
    expect(checkLedgerEntry({ ...ok, Amount: '12,50' }, today)).toMatchObject({ ok: true, entry: { AmountCents: 1250 } });
    expect(checkLedgerEdit({ ...ok, Amount: '12,5' }, today)).toMatchObject({ ok: true, entry: { AmountCents: 1250 } });
    expect(checkBalance('250,75')).toEqual({ ok: true, cents: 25075 });
  });
  it('the initial balance must be a number', () => {
    expect(checkBalance('abc')).toEqual({ ok: false, message: 'Balance has to be number' });
    expect(checkBalance('')).toEqual({ ok: false, message: 'Balance has to be number' });
    expect(checkBalance('-5.10')).toEqual({ ok: true, cents: -510 });
  });
  it('default ranges: ledger a year, activity 90 days, financials a month; month ends clamp', () => {
    expect(DefaultRange.ledger(today)).toEqual({ From: '2025-03-31', To: today });
    expect(DefaultRange.activity(today)).toEqual({ From: addDays(today, -90), To: today });
    expect(DefaultRange.financials(today)).toEqual({ From: '2026-02-28', To: today });
    expect(addMonths('2024-02-29', -12)).toBe('2023-02-28');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});
