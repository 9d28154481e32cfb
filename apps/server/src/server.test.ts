import { describe, expect, it } from 'vitest';
import { migrationDatabaseUrl } from './server';

describe('MIGRATION_DATABASE_URL', () => {
  const direct = 'postgres://portal:secret@db.internal:5432/portal';
  const pooled = 'postgres://portal:secret@pgbouncer.internal:6432/portal';

  it('is unset by default: the migrations run over DATABASE_URL', () => {
    expect(migrationDatabaseUrl({})).toBeNull();
    expect(migrationDatabaseUrl({ DATABASE_URL: pooled })).toBeNull();
    expect(migrationDatabaseUrl({ DATABASE_URL: pooled, MIGRATION_DATABASE_URL: '' })).toBeNull();
  });

  it('names the direct connection the migrations run over', () => {
    expect(migrationDatabaseUrl({ DATABASE_URL: pooled, MIGRATION_DATABASE_URL: direct })).toBe(direct);
  });

  it('needs DATABASE_URL, and a PostgreSQL URL', () => {
    expect(() => migrationDatabaseUrl({ MIGRATION_DATABASE_URL: direct })).toThrow(
      'MIGRATION_DATABASE_URL needs DATABASE_URL: the embedded database is migrated through itself',
    );
    expect(() => migrationDatabaseUrl({ DATABASE_URL: pooled, MIGRATION_DATABASE_URL: 'mysql://db.internal/portal' })).toThrow(
      'MIGRATION_DATABASE_URL must start with postgres:// or postgresql://, got "mysql:"',
    );
    expect(() => migrationDatabaseUrl({ DATABASE_URL: pooled, MIGRATION_DATABASE_URL: 'not a url' })).toThrow('MIGRATION_DATABASE_URL is not a valid URL');
  });
});
