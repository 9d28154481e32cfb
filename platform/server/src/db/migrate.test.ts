import { describe, expect, it } from 'vitest';
import { indexStatement } from './migrate';

describe('the statements a migration may run outside a transaction (indexStatement)', () => {
  it('takes CREATE [UNIQUE] INDEX [CONCURRENTLY] IF NOT EXISTS name ON table, and names the index to look for', () => {
    expect(indexStatement('CREATE INDEX CONCURRENTLY IF NOT EXISTS claims_member_idx ON claims (member_id)')).toEqual({
      text: 'CREATE INDEX CONCURRENTLY IF NOT EXISTS claims_member_idx ON claims (member_id)',
      index: 'claims_member_idx',
      concurrently: true,
    });
    expect(indexStatement('\n  create unique index if not exists claims_number_key on only claims using btree (lower(number));\n')).toEqual({
      text: 'create unique index if not exists claims_number_key on only claims using btree (lower(number))',
      index: 'claims_number_key',
      concurrently: false,
    });
  });

  it("looks for the index in the table's schema, spelled as the statement spells it", () => {
    expect(indexStatement('CREATE INDEX CONCURRENTLY IF NOT EXISTS "Claims by member" ON billing."Claims"(member_id)')).toMatchObject({
      index: 'billing."Claims by member"',
    });
  });

  it('takes DROP INDEX [CONCURRENTLY] IF EXISTS', () => {
    expect(indexStatement('DROP INDEX CONCURRENTLY IF EXISTS claims_member_idx;')).toEqual({
      text: 'DROP INDEX CONCURRENTLY IF EXISTS claims_member_idx',
      index: null,
      concurrently: true,
    });
    expect(indexStatement('drop index if exists a_idx, b_idx')).toMatchObject({ index: null, concurrently: false });
  });

  it('refuses any other statement: other changes to the schema stay in a transaction', () => {
    for (const s of [
      'ALTER TABLE claims ADD COLUMN note text',
      'CREATE TABLE claims_2 (id int)',
      'REINDEX INDEX CONCURRENTLY claims_member_idx',
      'UPDATE claims SET number = lower(number)',
      '-- the member index\nCREATE INDEX CONCURRENTLY IF NOT EXISTS claims_member_idx ON claims (member_id)',
    ])
      expect(indexStatement(s)).toEqual({ refused: expect.stringMatching(/^is not CREATE INDEX or DROP INDEX/) });
  });

  it('refuses an index statement that could not be run again: no IF NOT EXISTS / IF EXISTS, or no name', () => {
    expect(indexStatement('CREATE INDEX CONCURRENTLY claims_member_idx ON claims (member_id)')).toEqual({
      refused: expect.stringMatching(/^must read CREATE INDEX \.\.\. IF NOT EXISTS name/),
    });
    expect(indexStatement('CREATE INDEX CONCURRENTLY ON claims (member_id)')).toEqual({ refused: expect.stringMatching(/IF NOT EXISTS name/) });
    expect(indexStatement('DROP INDEX CONCURRENTLY claims_member_idx')).toEqual({ refused: expect.stringMatching(/^must read DROP INDEX \.\.\. IF EXISTS/) });
  });

  it('refuses more than one statement in an entry', () => {
    expect(indexStatement('CREATE INDEX CONCURRENTLY IF NOT EXISTS a_idx ON claims (a); DROP TABLE claims')).toEqual({
      refused: expect.stringMatching(/more than one statement/),
    });
  });
});
