import { isEmail } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { registerRequest, updateEmailRequest } from './contract';

const register = (UserName: string) => registerRequest.safeParse({ UserName, Password: 'Str0ng!Passphrase', FirstName: 'Ada', LastName: 'Lovelace' });

describe('account contract: e-mail addresses', () => {
  // The browser's forms check isEmail; an address they take must not come back from the server as a 400.
  const addresses = ['a&b@example.com', "o'brien@example.ie", 'first.last+tag@example.org', '.a@example.com', 'a.@example.com', 'a@b', 'not an address'];

  it('registration takes exactly the addresses the browser takes', () => {
    for (const a of addresses) expect({ a, ok: register(a).success }).toEqual({ a, ok: isEmail(a) });
  });

  it('an e-mail change takes exactly the addresses the browser takes, and names the field when it refuses one', () => {
    for (const a of addresses) expect({ a, ok: updateEmailRequest.safeParse({ email: a, Password: 'x' }).success }).toEqual({ a, ok: isEmail(a) });
    const refused = updateEmailRequest.safeParse({ email: '.a@example.com', Password: 'x' });
    expect(refused.error?.issues[0]?.message).toBe('email must be an e-mail address');
  });
});
