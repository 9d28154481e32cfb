import { describe, expect, it } from 'vitest';
import { activeNavPath, decodeInvalidData, encodeInvalidData, isActive, safeDestination } from './routes';

describe('kernel route helpers', () => {
  it('highlights the nav item whose pattern matches the path, ignoring case', () => {
    expect(isActive('/claims', '/Claims/12')).toBe(true);
    expect(isActive('/claims', '/claims-new')).toBe(false);
    expect(isActive('/help', '/claims')).toBe(false);
  });
  it('marks one nav item for a path: the exact pattern, else the longest one above it', () => {
    const nav = ['/transactions', '/transactions/activity', '/transactions/reported', '/payment', '/payment/bank', '/claims'];
    expect(activeNavPath(nav, '/transactions/activity')).toBe('/transactions/activity');
    expect(activeNavPath(nav, '/Transactions/Reported')).toBe('/transactions/reported');
    expect(activeNavPath(nav, '/transactions')).toBe('/transactions');
    expect(activeNavPath(nav, '/payment/bank')).toBe('/payment/bank');
    expect(activeNavPath(nav, '/payment/bank/add')).toBe('/payment/bank');
    expect(activeNavPath(nav, '/claims/12')).toBe('/claims');
    expect(activeNavPath(nav, '/claims-new')).toBeNull();
    expect(activeNavPath([], '/claims')).toBeNull();
  });
  it('round-trips the /invalid data value through base64, including non-ASCII and markup as plain text', () => {
    const text = '<img src=x onerror=alert(1)> café';
    expect(decodeInvalidData(encodeInvalidData(text))).toBe(text);
    expect(decodeInvalidData('%%%')).toBeNull();
  });
  it('hands off only to paths of this site', () => {
    expect(safeDestination('/claims?x=1')).toBe('/claims?x=1');
    expect(safeDestination('//evil.example.com')).toBeNull();
    expect(safeDestination('https://evil.example.com')).toBeNull();
    expect(safeDestination(null)).toBeNull();
  });
});
