import { describe, expect, it, vi } from 'vitest';
import { PREPARED_MAX, PreparedNames } from './prepared';

describe('PreparedNames', () => {
  it('names a text the second time it is seen, and the same name every time after', () => {
    const names = new PreparedNames();
    expect(names.nameFor('SELECT 1')).toBeUndefined();
    const name = names.nameFor('SELECT 1');
    expect(name).toMatch(/^portal_[0-9a-f]{40}$/);
    expect(names.nameFor('SELECT 1')).toBe(name);
    expect(names.size).toBe(1);
  });

  it('gives different texts different names that fit PostgreSQL’s 63-byte identifiers', () => {
    const names = new PreparedNames();
    for (const t of ['SELECT $1', 'SELECT $1 ', 'SELECT $2']) names.nameFor(t);
    const got = ['SELECT $1', 'SELECT $1 ', 'SELECT $2'].map((t) => names.nameFor(t) as string);
    expect(new Set(got).size).toBe(3);
    for (const n of got) expect(Buffer.byteLength(n)).toBeLessThanOrEqual(63);
  });

  it('names at most max texts, keeps those it named, and runs the rest unnamed', () => {
    const names = new PreparedNames(3);
    const texts = Array.from({ length: 6 }, (_, i) => `SELECT ${i}`);
    for (const t of texts) names.nameFor(t);
    const second = texts.map((t) => names.nameFor(t));
    expect(second.slice(0, 3).every((n) => typeof n === 'string')).toBe(true);
    expect(second.slice(3)).toEqual([undefined, undefined, undefined]);
    expect(names.size).toBe(3);
    expect(names.nameFor('SELECT 0')).toBe(second[0]);
    expect(texts.map((t) => names.nameFor(t))).toEqual(second);
  });

  it('defaults to PREPARED_MAX names', () => {
    const names = new PreparedNames();
    for (let i = 0; i < PREPARED_MAX + 10; i++) {
      names.nameFor(`SELECT ${i}`);
      names.nameFor(`SELECT ${i}`);
    }
    expect(names.size).toBe(PREPARED_MAX);
  });

  it('forgets the texts seen once when it has seen too many, so a flood of one-off texts holds bounded memory', () => {
    const names = new PreparedNames();
    names.nameFor('SELECT hot');
    for (let i = 0; i < 1024; i++) names.nameFor(`SELECT ${i}`);
    // The set of texts seen once was full and was cleared: 'SELECT hot' counts as new again.
    expect(names.nameFor('SELECT hot')).toBeUndefined();
    expect(names.nameFor('SELECT hot')).toMatch(/^portal_/);
  });

  it('stops naming when the database lost a named statement, with one process warning, and ignores other errors', () => {
    const names = new PreparedNames();
    names.nameFor('SELECT 1');
    expect(names.nameFor('SELECT 1')).toMatch(/^portal_/);
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    try {
      expect(names.lost(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
      expect(names.lost(null)).toBe(false);
      expect(names.nameFor('SELECT 1')).toMatch(/^portal_/);
      expect(names.lost(Object.assign(new Error('prepared statement "portal_x" does not exist'), { code: '26000' }))).toBe(true);
      expect(names.lost(Object.assign(new Error('prepared statement "portal_x" already exists'), { code: '42P05' }))).toBe(true);
      expect(names.nameFor('SELECT 1')).toBeUndefined();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toMatch(/did not keep a prepared statement .*does not exist.*every statement now runs unnamed/);
    } finally {
      warn.mockRestore();
    }
  });
});
