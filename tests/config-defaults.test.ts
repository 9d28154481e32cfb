import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brandSiteAddress, loadConfig } from '@portal/server/kernel';
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

describe("the brand sites' public address (SITE_ADDRESS)", () => {
  it('is unset unless told: e-mailed links then name the <marker>.localhost sites', () => {
    expect(loadConfig({}, cwd).siteAddress).toBeNull();
    expect(loadConfig({ SITE_ADDRESS: ' ' }, cwd).siteAddress).toBeNull();
  });

  it('takes an http or https origin with {marker} as a label of its host name, without the trailing /', () => {
    expect(loadConfig({ SITE_ADDRESS: 'https://{marker}.portal.example.com/' }, cwd).siteAddress).toBe('https://{marker}.portal.example.com');
    expect(loadConfig({ SITE_ADDRESS: 'http://{marker}.localhost:8080' }, cwd).siteAddress).toBe('http://{marker}.localhost:8080');
  });

  it("gives each brand's site address (e-mailed links, the gateway's webhook on the staff site) from it, else this machine's", () => {
    expect(brandSiteAddress(loadConfig({ SITE_ADDRESS: 'https://{marker}.portal.example.com' }, cwd), 'staff')).toBe('https://staff.portal.example.com');
    expect(brandSiteAddress(loadConfig({ PORT: '8280' }, cwd), 'card')).toBe('http://card.localhost:8280');
  });

  it('refuses an address without {marker} in its host name, with it twice or inside a word, a path, and other schemes', () => {
    for (const bad of [
      'https://portal.example.com',
      'https://portal.example.com/{marker}',
      'https://{marker}.example.com/?b={marker}',
      'https://my{marker}.example.com',
      'https://{marker}.example.com/login',
      'https://{marker}.example.com?x=1',
      'ftp://{marker}.example.com',
      'https://user:pw@{marker}.example.com',
      '{marker}.example.com',
    ])
      expect(() => loadConfig({ SITE_ADDRESS: bad }, cwd), bad).toThrow(/SITE_ADDRESS/);
  });
});

describe("the business's time zone (BUSINESS_TIME_ZONE)", () => {
  it('is America/Chicago unless set, and takes any IANA zone the runtime knows', () => {
    expect(loadConfig({}, cwd).businessTimeZone).toBe('America/Chicago');
    expect(loadConfig({ BUSINESS_TIME_ZONE: ' ' }, cwd).businessTimeZone).toBe('America/Chicago');
    expect(loadConfig({ BUSINESS_TIME_ZONE: 'America/New_York' }, cwd).businessTimeZone).toBe('America/New_York');
  });

  it('refuses a name that is no time zone, at start rather than at the first day it would decide', () => {
    expect(() => loadConfig({ BUSINESS_TIME_ZONE: 'Central' }, cwd)).toThrow(/BUSINESS_TIME_ZONE must be an IANA time zone/);
  });
});

describe("the providers' address (SANDBOX_URL)", () => {
  it('is http://localhost:8090 unless set, and takes an http(s) address without its trailing / or spaces', () => {
    expect(loadConfig({}, cwd).sandboxUrl).toBe('http://localhost:8090');
    expect(loadConfig({ SANDBOX_URL: 'https://sandbox.example.com/ ' }, cwd).sandboxUrl).toBe('https://sandbox.example.com');
  });

  it('refuses, at start and by name, an empty address, one without a scheme and other schemes', () => {
    for (const bad of ['', 'localhost:8090', 'ftp://sandbox.example.com', 'http://'])
      expect(() => loadConfig({ SANDBOX_URL: bad }, cwd), bad).toThrow(/SANDBOX_URL must be an http\(s\) address/);
  });
});
