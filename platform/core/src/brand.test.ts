import { describe, expect, it } from 'vitest';
import { brandForHost, parseBrand } from './brand';

const valid = {
  id: 'card',
  displayName: 'Card',
  marker: 'card',
  theme: 'card',
  plugins: ['help'],
  registration: { role: 'CareGuard', mode: 'external', externalUrl: 'https://example.com/join', signInOnRegister: false },
  contacts: { phone: '1', fax: '2', supportEmail: 'a@example.com', infoEmail: 'b@example.com' },
  copy: {},
  printCard: 'amethyst',
  home: '/dashboard',
};

describe('brand manifest', () => {
  it('accepts a complete manifest', () => {
    expect(parseBrand(valid, ['help']).id).toBe('card');
  });
  it('names the brand and the plugin when a manifest enables an unknown plugin', () => {
    expect(() => parseBrand({ ...valid, plugins: ['help', 'nope'] }, ['help'])).toThrow(/Brand "card".*\n.*plugins\.1: unknown plugin "nope"/);
  });
  it('names the brand and the field when a field is missing', () => {
    const { contacts: _omit, ...missing } = valid;
    expect(() => parseBrand(missing, ['help'])).toThrow(/Brand "card"[\s\S]*contacts/);
  });
  it('takes a card-save wait of its own from 1 to 120 seconds (spec 01: 10000 ms by default, overridable) and nothing else', () => {
    expect(parseBrand(valid, ['help']).cardSaveWaitMs).toBeUndefined();
    expect(parseBrand({ ...valid, cardSaveWaitMs: 30_000 }, ['help']).cardSaveWaitMs).toBe(30_000);
    expect(() => parseBrand({ ...valid, cardSaveWaitMs: 500 }, ['help'])).toThrow(/cardSaveWaitMs/);
    expect(() => parseBrand({ ...valid, cardSaveWaitMs: 1.5e3 + 0.5 }, ['help'])).toThrow(/cardSaveWaitMs/);
  });
  it('refuses a bad e-mail in the contacts', () => {
    expect(() => parseBrand({ ...valid, contacts: { ...valid.contacts, supportEmail: 'nope' } }, ['help'])).toThrow(/contacts\.supportEmail/);
  });
  it('picks the brand by the marker word in the host and nothing for unknown hosts', () => {
    const brands = [{ marker: 'card' }, { marker: 'finance' }];
    expect(brandForHost('card.localhost:8080', brands)?.marker).toBe('card');
    expect(brandForHost('FINANCE.localhost', brands)?.marker).toBe('finance');
    expect(brandForHost('localhost:8080', brands)).toBeNull();
    expect(brandForHost('cardiff.example.com', brands)).toBeNull();
  });
});
