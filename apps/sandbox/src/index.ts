export { createSandbox, type SandboxOptions } from './app';
export { latestMailTo, linksIn, mailTo } from './client';
export { incomingMailSchema, type SandboxMail } from './mail';
