export { STALE_NEW_PASSWORD as BANK_STALE_NEW_PASSWORD, TEST_PASSWORD as BANK_TEST_PASSWORD, TEST_USERS as BANK_TEST_USERS } from './aggregator-data';
export { createSandbox, type SandboxOptions } from './app';
export { codeIn, latestMailTo, latestSmsTo, linksIn, mailTo, smsTo } from './client';
export { type GatewayOptions, webhookSignature } from './gateway';
export { luhnValid, TEST_CARDS } from './gateway-cards';
export { incomingMailSchema, type SandboxMail } from './mail';
export { EICAR, EICAR_NAME } from './scanner';
export { carrierLookup, incomingSmsSchema, type SandboxPhoneLookup, type SandboxSms } from './sms';
