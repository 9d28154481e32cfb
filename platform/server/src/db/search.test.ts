import { describe, expect, it } from 'vitest';
import { kernelMigrations } from './kernel-migrations';
import {
  allWordsSql,
  containsPattern,
  foldSql,
  foldText,
  MAX_SEARCH_WORDS,
  MEMBER_TEXT,
  plainLetters,
  searchWords,
  sqlParams,
  storedSearchTextSql,
} from './search';

describe('searchWords: the words a search box requires', () => {
  it('gives the same words whatever the order, commas, spacing, case and accents', () => {
    const want = ['jose', 'nunez'];
    for (const text of ['José Núñez', 'Núñez, José', 'Núñez,José', 'josé  núñez', '  JOSÉ\tNÚÑEZ ', 'Jose Nunez']) {
      expect([...searchWords(text)].sort(), text).toEqual(want);
    }
  });

  it('splits on hyphens, dashes, slashes and dots: "Anne Marie" and "Anne-Marie" are the same words', () => {
    expect(searchWords('Anne-Marie')).toEqual(['anne', 'marie']);
    expect(searchWords('Anne Marie')).toEqual(['anne', 'marie']);
    expect(searchWords('amoxicillin/clavulanate')).toEqual(['amoxicillin', 'clavulanate']);
    expect(searchWords('St. Mary – Regional')).toEqual(['st', 'mary', 'regional']);
    expect(searchWords('jose.nunez@example.com')).toEqual(['jose', 'nunez@example', 'com']);
  });

  it('folds the accented letters of the languages names come in', () => {
    expect(foldText('áàâäãå ÉÈÊË íïÎ óöõ úüÛ ñÑ çÇ ýÿ ő ž č ş ğ İ')).toBe('aaaaaa eeee iii ooo uuu nn cc yy o z c s g i');
    // Letters NFD leaves whole are written as the plain letters a person types for them (on the database's side too).
    expect(foldText('Łukasz Øster Đorđe Søren Strauß Ærø Œuvre Ħal Iıl Ðóra')).toBe('lukasz oster dorde soren strauss aero oeuvre hal iil dora');
    expect(foldText('STRAUẞ ÆRØ ŒUVRE')).toBe('strauss aero oeuvre');
    expect(searchWords('STRAUSS soren')).toEqual(['strauss', 'soren']);
    expect(foldText('Zoë Peña')).toBe('zoe pena');
    // Decomposed input (an accent typed as a separate mark) folds the same way.
    expect(foldText('Pen\u0303a')).toBe('pena');
  });

  it('writes the letters NFD leaves whole as plain ones with their case kept, for file names', () => {
    expect(plainLetters('Łukasz Øster Strauß ÆRØ Œuvre ẞ Née')).toBe('Lukasz Oster Strauss AERO OEuvre SS Née');
  });

  it('keeps every other character, wildcards included: they only ever match themselves', () => {
    expect(searchWords("O'Brien 100% mary_")).toEqual(["o'brien", '100%', 'mary_']);
  });

  it('drops empty words and repeats, and keeps at most MAX_SEARCH_WORDS', () => {
    expect(searchWords('')).toEqual([]);
    expect(searchWords(null)).toEqual([]);
    expect(searchWords(' , - / . ')).toEqual([]);
    expect(searchWords('card card CARD')).toEqual(['card']);
    const many = Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ');
    expect(searchWords(many)).toHaveLength(MAX_SEARCH_WORDS);
    expect(searchWords(many, 3)).toEqual(['w0', 'w1', 'w2']);
  });
});

describe('allWordsSql: every word in the folded text', () => {
  it('ANDs one strpos a word, each word a parameter numbered after the statement’s own', () => {
    const params: unknown[] = [42];
    const where = allWordsSql('m.first_name', ['jose', 'nunez'], sqlParams(params));
    expect(params).toEqual([42, 'jose', 'nunez']);
    expect(where).toBe(`(strpos(${foldSql('m.first_name')}, $2) > 0 AND strpos(${foldSql('m.first_name')}, $3) > 0)`);
  });

  it('is true without words, and adds nothing to the parameters', () => {
    const params: unknown[] = [];
    expect(allWordsSql('x', [], sqlParams(params))).toBe('true');
    expect(params).toEqual([]);
  });

  it('ORs a word’s alternative with its strpos, and leaves the other words alone', () => {
    const params: unknown[] = [];
    const param = sqlParams(params);
    const where = allWordsSql('t.description', ['paid', 'card'], param, (w) => (w === 'paid' ? `t.status = ANY(${param(['Charged'])}::text[])` : null));
    expect(where).toBe(`((strpos(${foldSql('t.description')}, $1) > 0 OR t.status = ANY($2::text[])) AND strpos(${foldSql('t.description')}, $3) > 0)`);
    expect(params).toEqual(['paid', ['Charged'], 'card']);
  });

  it('compares text already folded (a column that keeps it) by LIKE with the word’s pattern, and hands the alternative that placeholder', () => {
    const params: unknown[] = [];
    const where = allWordsSql({ folded: 't.search_text' }, ['jose', 'nunez'], sqlParams(params), (w, placeholder) =>
      w === 'nunez' ? `t.member_id IN (SELECT member_id FROM members WHERE search_text LIKE ${placeholder})` : null,
    );
    expect(where).toBe('(t.search_text LIKE $1 AND (t.search_text LIKE $2 OR t.member_id IN (SELECT member_id FROM members WHERE search_text LIKE $2)))');
    expect(params).toEqual(['%jose%', '%nunez%']);
  });
});

describe('containsPattern: a word anywhere, LIKE’s characters matching only themselves', () => {
  it('wraps the word in % and escapes %, _ and the backslash', () => {
    expect(containsPattern('nunez')).toBe('%nunez%');
    expect(containsPattern('50%')).toBe('%50\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('c:\\x')).toBe('%c:\\\\x%');
  });
});

describe('members.search_text (kernel migration 0010)', () => {
  it('is foldSql of MEMBER_TEXT as it stands: a change to either needs a migration that redefines the column', () => {
    const migration = kernelMigrations.find((m) => m.id === '0010_member_search_text');
    expect(migration && 'sql' in migration ? migration.sql : null).toBe(storedSearchTextSql('members', MEMBER_TEXT));
  });
});
