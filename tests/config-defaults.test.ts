import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@portal/server/kernel';
import { afterAll, describe, expect, it } from 'vitest';

const cwd = mkdtempSync(join(tmpdir(), 'portal-config-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('exposure defaults', () => {
  it('listens on 127.0.0.1 unless HOST says otherwise', () => {
    expect(loadConfig({}, cwd).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '' }, cwd).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }, cwd).host).toBe('0.0.0.0');
  });

  it('is not in demo mode unless DEMO_MODE is set', () => {
    expect(loadConfig({}, cwd).demoMode).toBe(false);
    expect(loadConfig({ DEMO_MODE: '1' }, cwd).demoMode).toBe(true);
    expect(loadConfig({ DEMO_MODE: '0' }, cwd).demoMode).toBe(false);
    expect(() => loadConfig({ DEMO_MODE: 'yes please' }, cwd)).toThrow(/DEMO_MODE/);
  });
});
