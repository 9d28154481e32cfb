import nodemailer from 'nodemailer';
import type { DefineOptions, JobQueue } from '../jobs/queue';

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The brand whose site sent it; the sandbox inbox groups by it. */
  brand?: string;
}

/** Outgoing mail. Implementations: the sandbox inbox (default) and SMTP (SMTP_URL). */
export interface MailTransport {
  readonly kind: string;
  send(message: MailMessage): Promise<void>;
}

export class SandboxMailTransport implements MailTransport {
  readonly kind = 'sandbox';
  constructor(private readonly sandboxUrl: string) {}
  async send(message: MailMessage): Promise<void> {
    const res = await fetch(`${this.sandboxUrl}/mail/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
      // A sandbox that does not answer must not hold the request that sends the mail.
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`sandbox mail refused the message: ${res.status} ${await res.text()}`);
  }
}

export class SmtpMailTransport implements MailTransport {
  readonly kind = 'smtp';
  private readonly transporter;
  constructor(smtpUrl: string) {
    this.transporter = nodemailer.createTransport(smtpUrl);
  }
  async send(message: MailMessage): Promise<void> {
    await this.transporter.sendMail({ from: message.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
  }
}

export function createMailTransport(opts: { smtpUrl: string | null; sandboxUrl: string }): MailTransport {
  return opts.smtpUrl ? new SmtpMailTransport(opts.smtpUrl) : new SandboxMailTransport(opts.sandboxUrl);
}

export const MAIL_SEND_JOB = 'mail.send';

/**
 * A refused or unreachable mail server is retried ten times over 35 to 70 minutes (waits of 2, 4, 8 ... 1024 s,
 * each up to twice that with jitter). A run is cut off after 5 minutes, past nodemailer's connection timeout.
 */
export const MAIL_RETRY: DefineOptions = { retryLimit: 10, retryDelay: 2, retryBackoff: true, expireInSeconds: 5 * 60 };

/**
 * Mail through the job queue: send() returns once the message is stored as a 'mail.send' job, and the job
 * delivers it through the real transport, retried with backoff when that transport fails.
 */
export class QueuedMailTransport implements MailTransport {
  readonly kind: string;
  private constructor(
    private readonly jobs: JobQueue,
    readonly delivery: MailTransport,
  ) {
    this.kind = `queued ${delivery.kind}`;
  }

  /** Defines the delivery job on the queue and returns the transport that queues into it. */
  static async create(jobs: JobQueue, delivery: MailTransport, retry: DefineOptions = MAIL_RETRY): Promise<QueuedMailTransport> {
    await jobs.define<MailMessage>(MAIL_SEND_JOB, (message) => delivery.send(message), retry);
    return new QueuedMailTransport(jobs, delivery);
  }

  async send(message: MailMessage): Promise<void> {
    await this.jobs.send(MAIL_SEND_JOB, message);
  }
}
