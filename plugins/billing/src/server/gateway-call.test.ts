import { ApiError, GatewayError, GatewayUnavailableError } from '@portal/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BILLING_MESSAGES } from '../contract';
import { type GatewayLog, gatewayCall } from './core';
import { webhookUrlFrom } from './webhook-url';

const spyLog = () => ({ warn: vi.fn<GatewayLog['warn']>(), error: vi.fn<GatewayLog['error']>() });
const failed = async (e: Error, log?: GatewayLog) => {
  const err = await gatewayCall(() => Promise.reject(e), log).catch((x: unknown) => x);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a gateway call's failure becomes our answer, with its cause logged", () => {
  it('an unreachable gateway: our 503, its cause logged as a warning', async () => {
    const log = spyLog();
    const cause = new GatewayUnavailableError('card gateway POST /gateway/api/customers: 500 The card gateway answered 500.');
    const err = await failed(cause, log);
    expect(err.status).toBe(503);
    expect(err.text).toBe(BILLING_MESSAGES.unavailable);
    expect(log.warn).toHaveBeenCalledWith({ err: cause }, 'card gateway unavailable');
    expect(log.error).not.toHaveBeenCalled();
  });

  it('our credentials refused (401, 403): our 503 "not available", never the gateway\'s text, logged as an error', async () => {
    for (const status of [401, 403]) {
      const log = spyLog();
      const cause = new GatewayError(status, 'User authentication failed due to invalid authentication values.');
      const err = await failed(cause, log);
      expect(err.status).toBe(503);
      expect(err.text).toBe(BILLING_MESSAGES.unavailable);
      expect(log.error).toHaveBeenCalledWith({ err: cause, status }, 'card gateway refused our credentials');
    }
  });

  it("a refusal of the request itself keeps the gateway's words: 404 as 404, another 4xx as 400", async () => {
    const log = spyLog();
    expect(await failed(new GatewayError(404, 'The record cannot be found.'), log)).toMatchObject({ status: 404, text: 'The record cannot be found.' });
    expect(await failed(new GatewayError(400, 'The referenced transaction does not meet the criteria.'), log)).toMatchObject({
      status: 400,
      text: 'The referenced transaction does not meet the criteria.',
    });
  });

  it("logs to the logger it is given (a billing route's request logger), else to the process's console", async () => {
    const log = spyLog();
    const cause = new GatewayUnavailableError('card gateway GET /gateway/api/customers/1: fetch failed');
    await failed(cause, log);
    expect(log.warn).toHaveBeenCalledWith({ err: cause }, 'card gateway unavailable');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await failed(cause);
    // As the log keeps an error (loggedError): its type, message and stack, never a failing statement's values.
    expect(warn).toHaveBeenCalledWith('card gateway unavailable', {
      err: expect.objectContaining({ type: 'GatewayUnavailableError', message: cause.message }),
    });
    expect(log.warn).toHaveBeenCalledTimes(1);
  });
});

describe('PAYMENT_WEBHOOK_URL', () => {
  const fallback = 'http://staff.localhost:8080/api/payment/webhook';
  it('takes an absolute http(s) address, else the staff site', () => {
    expect(webhookUrlFrom({ PAYMENT_WEBHOOK_URL: 'https://staff.example.com/api/payment/webhook' }, fallback)).toBe(
      'https://staff.example.com/api/payment/webhook',
    );
    expect(webhookUrlFrom({ PAYMENT_WEBHOOK_URL: ' http://staff.example.com/api/payment/webhook ' }, fallback)).toBe(
      'http://staff.example.com/api/payment/webhook',
    );
    expect(webhookUrlFrom({}, fallback)).toBe(fallback);
    expect(webhookUrlFrom({ PAYMENT_WEBHOOK_URL: '' }, fallback)).toBe(fallback);
  });

  it('refuses at start an address the gateway could not post to, naming the variable', () => {
    for (const bad of ['staff.example.com/api/payment/webhook', 'ftp://staff.example.com/hook', 'https://', 'http://exa mple.com/x']) {
      expect(() => webhookUrlFrom({ PAYMENT_WEBHOOK_URL: bad }, fallback)).toThrow(/^PAYMENT_WEBHOOK_URL must be an absolute http\(s\) address/);
    }
  });
});
