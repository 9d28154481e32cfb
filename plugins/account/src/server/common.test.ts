import { describe, expect, it } from 'vitest';
import { siteAddressOf } from './common';

const card = { marker: 'card' };
const dev = { port: 8080, siteAddress: null };
const deployed = { port: 8080, siteAddress: 'https://{marker}.portal.example.com' };

describe("the address e-mailed links name (a brand's site)", () => {
  it("on a development machine, is the request's own <marker>.localhost host, port and scheme", () => {
    expect(siteAddressOf(card, 'card.localhost:5173', 'http', dev)).toBe('http://card.localhost:5173');
    expect(siteAddressOf(card, 'CARD.localhost', 'https', dev)).toBe('https://card.localhost');
  });

  it("never takes a Host the caller chose: another brand's or any other host gives the brand's localhost site", () => {
    expect(siteAddressOf(card, 'finance.localhost:8080', 'http', dev)).toBe('http://card.localhost:8080');
    expect(siteAddressOf(card, 'card.attacker.example', 'https', dev)).toBe('http://card.localhost:8080');
    expect(siteAddressOf(card, '', 'http', dev)).toBe('http://card.localhost:8080');
  });

  it('with SITE_ADDRESS, is that address with the brand’s marker word, whatever Host the request came on', () => {
    expect(siteAddressOf(card, 'card.localhost:8080', 'http', deployed)).toBe('https://card.portal.example.com');
    expect(siteAddressOf(card, 'card.attacker.example', 'https', deployed)).toBe('https://card.portal.example.com');
    expect(siteAddressOf({ marker: 'finance' }, '10.0.0.7:8080', 'http', deployed)).toBe('https://finance.portal.example.com');
  });
});
