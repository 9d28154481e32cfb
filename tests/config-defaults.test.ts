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

describe('the proxies in front of the API (TRUST_PROXY)', () => {
  it('trusts no proxy unless told: X-Forwarded-For is then ignored', () => {
    expect(loadConfig({}, cwd).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: ' ' }, cwd).trustedProxies).toEqual([]);
  });

  it('takes addresses, CIDR ranges and the private ranges by name, comma-separated', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8 , ::1,loopback' }, cwd).trustedProxies).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
  });

  it('refuses "true" (any client could then choose the address the limits count), host names and bad ranges', () => {
    for (const bad of ['true', '*', 'proxy.internal', '10.0.0.0/33', '::1/129', '10.0.0.0/8/1', '10.0.0.0/x', '10.0.0.1,'])
      expect(() => loadConfig({ TRUST_PROXY: bad }, cwd), bad).toThrow(/TRUST_PROXY/);
  });
});
