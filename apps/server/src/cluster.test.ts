import { availableParallelism } from 'node:os';
import { ConfigError } from '@portal/server/kernel';
import { describe, expect, it } from 'vitest';
import { parseWorkers } from './cluster';

const PG = { DATABASE_URL: 'postgres://portal@127.0.0.1:5432/portal' };

describe('WORKERS', () => {
  it('is one process when unset or empty', () => {
    expect(parseWorkers({})).toBe(1);
    expect(parseWorkers({ WORKERS: '' })).toBe(1);
    expect(parseWorkers({ WORKERS: '1' })).toBe(1);
  });
  it('takes a whole number, or one per core for auto, on PostgreSQL', () => {
    expect(parseWorkers({ ...PG, WORKERS: '4' })).toBe(4);
    expect(parseWorkers({ ...PG, WORKERS: ' 2 ' })).toBe(2);
    expect(parseWorkers({ ...PG, WORKERS: 'auto' })).toBe(availableParallelism());
  });
  it('refuses anything else, naming the value', () => {
    for (const bad of ['0', '-1', '1.5', 'two', '65'])
      expect(() => parseWorkers({ ...PG, WORKERS: bad })).toThrow(new ConfigError(`WORKERS must be a whole number from 1 to 64 or "auto", got "${bad}"`));
  });
  it('refuses several processes on the embedded database', () => {
    expect(() => parseWorkers({ WORKERS: '2' })).toThrow(/WORKERS=2 needs DATABASE_URL/);
    expect(parseWorkers({ WORKERS: '1' })).toBe(1);
  });
});
