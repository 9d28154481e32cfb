import { ApiError, BankAggregatorError, BankAggregatorUnavailableError } from '@portal/server';
import { describe, expect, it } from 'vitest';
import { viaAggregator } from './core';
import { BANK_MESSAGES } from './messages';

const failing = (e: Error) => viaAggregator(() => Promise.reject(e));
const caught = async (e: Error) => {
  const error = await failing(e).catch((x: unknown) => x);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
};

describe("viaAggregator: the aggregator's failures as answers, their causes kept for the log", () => {
  it('unavailable: 502 with our message, and the provider’s text as the cause (the kernel logs a 5xx ApiError’s cause)', async () => {
    const e = await caught(new BankAggregatorUnavailableError('bank aggregator GET /institutions/popular: 500 <html>Bad Gateway</html>'));
    expect([e.status, String(e.text)]).toEqual([502, BANK_MESSAGES.unavailable]);
    expect(e.cause).toBe('bank aggregator: bank aggregator GET /institutions/popular: 500 <html>Bad Gateway</html>');
  });

  it('our own credentials refused (401, 403): unavailable to the member, the refusal in the log, never its text to the member', async () => {
    for (const status of [401, 403]) {
      const e = await caught(new BankAggregatorError(status, 'Invalid client credentials.'));
      expect([e.status, String(e.text)]).toEqual([502, BANK_MESSAGES.unavailable]);
      expect(String(e.cause)).toContain(`(${status}): Invalid client credentials.`);
    }
  });

  it("the member's own refusals keep the aggregator's text: 404, 409, else 400", async () => {
    expect((await caught(new BankAggregatorError(404, 'The link was not found.'))).status).toBe(404);
    expect((await caught(new BankAggregatorError(409, 'The link is not waiting for a multi-factor answer.'))).status).toBe(409);
    const wrong = await caught(new BankAggregatorError(422, 'The answer you entered is not correct.'));
    expect([wrong.status, String(wrong.text)]).toEqual([400, 'The answer you entered is not correct.']);
  });

  it('anything else is thrown as it is', async () => {
    const boom = new TypeError('boom');
    await expect(failing(boom)).rejects.toBe(boom);
  });
});
