import { openTestDatabase } from '@portal/testing/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database';
import { kernelMigrations } from './kernel-migrations';
import { migrate } from './migrate';
import { allWordsSql, foldSql, foldText, searchWords, sqlParams } from './search';

/** The database folds a column as foldText folds the words, on the engine the tests run on (PGlite or PostgreSQL). */
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await migrate(database.sql, [{ owner: 'kernel', migrations: kernelMigrations }]);
});
afterAll(() => database?.close());

const TEXTS = [
  'José Núñez',
  'ÁLVARO GARCÍA',
  'Zoë Peña',
  'Anne-Marie Smith Jones',
  'Íñigo Muñoz',
  'Łukasz Øster Đorđe',
  "Mary O'Brien",
  'plain ascii 100%',
  'Çağrı Ünlü İnce',
  'Søren Strauß Ærø',
  'ÆRØ STRAUẞ ŒUVRE',
];

describe('foldSql on the database', () => {
  it('gives the text foldText gives, for ASCII and accented text alike', async () => {
    for (const text of TEXTS) {
      const [row] = await database.sql.query<{ f: string }>(`SELECT ${foldSql('$1::text')} AS f`, [text]);
      expect(row?.f, text).toBe(foldText(text));
    }
  });

  it('finds a row by every word of a search, in any order, with or without accents, and not by a word it lacks', async () => {
    const find = async (search: string) => {
      const params: unknown[] = [TEXTS];
      const where = allWordsSql('t.v', searchWords(search), sqlParams(params));
      return (await database.sql.query<{ v: string }>(`SELECT t.v FROM unnest($1::text[]) AS t(v) WHERE ${where}`, params)).map((r) => r.v).sort();
    };
    expect(await find('Núñez, José')).toEqual(['José Núñez']);
    expect(await find('nunez  jose')).toEqual(['José Núñez']);
    expect(await find('pena')).toEqual(['Zoë Peña']);
    expect(await find('anne marie')).toEqual(['Anne-Marie Smith Jones']);
    expect(await find('garcia alvaro')).toEqual(['ÁLVARO GARCÍA']);
    expect(await find('ŁUKASZ øster')).toEqual(['Łukasz Øster Đorđe']);
    expect(await find('lukasz oster dorde')).toEqual(['Łukasz Øster Đorđe']);
    expect(await find('soren strauss aero')).toEqual(['Søren Strauß Ærø']);
    expect(await find('oeuvre')).toEqual(['ÆRØ STRAUẞ ŒUVRE']);
    expect(await find('cagri')).toEqual(['Çağrı Ünlü İnce']);
    expect(await find('cagrı unlu ince')).toEqual(['Çağrı Ünlü İnce']);
    expect(await find('100%')).toEqual(['plain ascii 100%']);
    expect(await find('jose garcia')).toEqual([]);
    expect(await find('')).toEqual([...TEXTS].sort());
  });
});

describe('members.search_text (kernel migration 0010)', () => {
  it('keeps the member’s name, number and e-mail folded as they are written and changed, for every text above', async () => {
    for (const [i, text] of TEXTS.entries()) {
      const [first, ...rest] = text.split(' ');
      const [row] = await database.sql.query<{ member_id: number; search_text: string }>(
        `INSERT INTO members (member_number, brand, first_name, last_name, email) VALUES ($1, 'card', $2, $3, $4) RETURNING member_id, search_text`,
        [`ST${i}`, first, rest.join(' '), `Member.${i}@Example.com`],
      );
      expect(row?.search_text, text).toBe(foldText(`${first} ${rest.join(' ')} ST${i} Member.${i}@Example.com`));
      const [changed] = await database.sql.query<{ search_text: string }>(
        "UPDATE members SET last_name = 'Ñandú', email = NULL WHERE member_id = $1 RETURNING search_text",
        [row?.member_id],
      );
      expect(changed?.search_text, text).toBe(`${foldText(first ?? '')} nandu st${i} `);
    }
  });
});
