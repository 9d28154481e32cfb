export { createSandbox, type SandboxOptions } from './app';
export { codeIn, latestMailTo, latestSmsTo, linksIn, mailTo, smsTo } from './client';
export { type GatewayOptions, webhookSignature } from './gateway';
export { luhnValid, TEST_CARDS } from './gateway-cards';
export { incomingMailSchema, type SandboxMail } from './mail';
export { carrierLookup, incomingSmsSchema, type SandboxPhoneLookup, type SandboxSms } from './sms';
