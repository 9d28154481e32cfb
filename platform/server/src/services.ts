import type { MailTransport } from './providers/mail';

/** External services the kernel hands to plugins; each sits behind an interface with a sandbox implementation. */
export interface Services {
  mail: MailTransport;
}
