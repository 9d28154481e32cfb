import { describe, expect, it } from 'vitest';
import { isSealed, payloadSealer, SealError } from './sealed-payload';

const sealer = payloadSealer('test-secret');
const message = { to: 'ann@example.com', subject: 'Reset', text: 'Open https://finance.example.com/login/reset/abcDEF123' };
const ID = '6a1f3c2e-9b7d-4e5f-a1b2-c3d4e5f60718';

/** The sealed text with one character of its encoded body changed to another base64url character. */
function altered(sealed: string, at: number): string {
  const c = sealed[at] === 'A' ? 'B' : 'A';
  return sealed.slice(0, at) + c + sealed.slice(at + 1);
}

describe('sealed job payloads', () => {
  it('seal the whole payload: nothing of it stands in the stored JSON, and it opens as it was', () => {
    const stored = sealer.seal('mail.send', ID, message);
    const json = JSON.stringify(stored);
    for (const part of ['ann@example.com', 'Reset', '/login/reset/', 'abcDEF123']) expect(json).not.toContain(part);
    expect(isSealed(stored)).toBe(true);
    expect(sealer.open('mail.send', ID, JSON.parse(json))).toEqual({ payload: message, unsealed: false });
    // A fresh IV each time: the same message seals differently.
    expect(sealer.seal('mail.send', ID, message).sealed).not.toBe(stored.sealed);
  });

  it('refuse an altered payload, one moved to another job or kind, and one sealed under another secret', () => {
    const { sealed } = sealer.seal('mail.send', ID, message);
    for (const at of [3, 10, 30, Math.floor(sealed.length / 2), sealed.length - 5]) {
      expect(() => sealer.open('mail.send', ID, { sealed: altered(sealed, at) }), `changed at ${at}`).toThrow(SealError);
    }
    expect(() => sealer.open('mail.send', ID, { sealed: sealed.slice(0, -4) })).toThrow(SealError);
    expect(() => sealer.open('mail.send', ID, { sealed: `${sealed}!` })).toThrow(SealError);
    expect(() => sealer.open('mail.send', ID, { sealed: sealed.replace('v1.', 'v2.') })).toThrow(SealError);
    expect(() => sealer.open('mail.send', ID, { sealed: 42 })).toThrow(SealError);
    expect(() => sealer.open('mail.send', '0b5c9d1e-2f3a-4b5c-8d6e-7f8091a2b3c4', { sealed })).toThrow(SealError);
    expect(() => sealer.open('profile.sms.send', ID, { sealed })).toThrow(SealError);
    expect(() => payloadSealer('another-secret').open('mail.send', ID, { sealed })).toThrow(SealError);
    // The error says nothing of the payload.
    try {
      sealer.open('mail.send', ID, { sealed: altered(sealed, 30) });
    } catch (e) {
      expect(String(e)).toBe('SealError: the sealed job payload does not open');
    }
  });

  it('pass a payload stored in clear (queued before sealing) through as it is, marked unsealed', () => {
    expect(sealer.open('mail.send', ID, message)).toEqual({ payload: message, unsealed: true });
    expect(() => sealer.open('mail.send', ID, null)).toThrow(SealError);
    expect(() => sealer.open('mail.send', ID, 'text')).toThrow(SealError);
  });

  it('need a secret', () => {
    expect(() => payloadSealer('')).toThrow(/needs a secret/);
  });
});
