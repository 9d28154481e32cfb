import { describe, expect, it } from 'vitest';
import { gatewayConfigFromEnv } from './payments';

const SANDBOX = 'http://127.0.0.1:8090';
const SET = { GATEWAY_LOGIN_ID: 'merchant-7', GATEWAY_TRANSACTION_KEY: 'key-7', GATEWAY_SIGNATURE_KEY: 'sig-7' };

describe('the card gateway’s credentials', () => {
  it('default to the sandbox merchant’s outside production (development, tests, demos)', () => {
    expect(gatewayConfigFromEnv(SANDBOX, {})).toEqual({
      sandboxUrl: SANDBOX,
      loginId: 'sandbox-merchant',
      transactionKey: 'sandbox-transaction-key',
      signatureKey: 'sandbox-signature-key',
    });
  });

  it('stop a production start that leaves any of them out, naming the missing ones', () => {
    expect(() => gatewayConfigFromEnv(SANDBOX, { NODE_ENV: 'production' })).toThrow(
      'GATEWAY_LOGIN_ID, GATEWAY_TRANSACTION_KEY, GATEWAY_SIGNATURE_KEY must be set when NODE_ENV is production',
    );
    expect(() => gatewayConfigFromEnv(SANDBOX, { NODE_ENV: 'production', ...SET, GATEWAY_SIGNATURE_KEY: '' })).toThrow(/^GATEWAY_SIGNATURE_KEY must be set/);
  });

  it('are the ones set, in production as elsewhere', () => {
    expect(gatewayConfigFromEnv(SANDBOX, { NODE_ENV: 'production', ...SET })).toMatchObject({
      loginId: 'merchant-7',
      transactionKey: 'key-7',
      signatureKey: 'sig-7',
    });
  });
});
