import { storedSearchTextSql } from '@portal/server';
import { describe, expect, it } from 'vitest';
import { migrations } from './migrations';
import { CHARGE_TEXT } from './support-queries';

/**
 * Migration 0010 keeps each charge's text folded in billing_transactions.search_text, and a search compares its words
 * (folded by foldText) with it. Its expression is frozen in the migration: if foldSql or CHARGE_TEXT changes, what is
 * stored and what a search folds part ways, so a new migration must redefine the column.
 */
describe('billing: the stored search text (migration 0010)', () => {
  it('is foldSql of CHARGE_TEXT as it stands: a change to either needs a migration that redefines the column', () => {
    const migration = migrations.find((m) => m.id === '0010_billing_search_text');
    expect(migration && 'sql' in migration ? migration.sql : null).toBe(storedSearchTextSql('billing_transactions', CHARGE_TEXT));
  });
});
