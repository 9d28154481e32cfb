import nodemailer from 'nodemailer';
import type { SqlClient } from '../db/database';
import type { DefineOptions, JobInfo, JobQueue } from '../jobs/queue';

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The brand whose site sent it; the sandbox inbox groups by it. */
  brand?: string;
}

/** How one message is sent (mail or text message). */
export interface DeliveryOptions {
  /**
   * The same key on every attempt to send one message (at most 255 visible ASCII characters): a provider that keeps
   * keys (the sandbox's mail and SMS APIs, as a real provider's Idempotency-Key) stores the message once however
   * often it is sent, so a retry after an answer that was lost does not deliver it twice. Omitted: each send is new.
   */
  idempotencyKey?: string;
}

/**
 * The idempotency key of a queued delivery: the job's kind and id, the same on every retry of the job and different
 * for every other job (`mail.send.<uuid>`; dots, letters, digits and hyphens, so it is also a valid Message-ID part).
 */
export const jobIdempotencyKey = (job: Pick<JobInfo, 'id' | 'name'>): string => `${job.name}.${job.id}`;

/** How one message is handed to the mail service (`services.mail`). */
export interface SendMailOptions extends DeliveryOptions {
  /**
   * Queue the delivery in this transaction: the mail goes out if, and only if, the transaction commits (a state that
   * says "notified" never commits without its mail). A transport that delivers at once (no queue) ignores it.
   */
  tx?: SqlClient;
}

/** Outgoing mail. Implementations: the sandbox inbox (default) and SMTP (SMTP_URL). */
export interface MailTransport {
  readonly kind: string;
  send(message: MailMessage, opts?: SendMailOptions): Promise<void>;
}

export class SandboxMailTransport implements MailTransport {
  readonly kind = 'sandbox';
  constructor(private readonly sandboxUrl: string) {}
  /** With a key, a repeated send answers the first message (200) and the inbox keeps one. */
  async send(message: MailMessage, opts: DeliveryOptions = {}): Promise<void> {
    const res = await fetch(`${this.sandboxUrl}/mail/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : {}) },
      body: JSON.stringify(message),
      // A sandbox that does not answer must not hold the request that sends the mail.
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`sandbox mail refused the message: ${res.status} ${await res.text()}`);
  }
}

/** What may stand between `<` and `@` in a Message-ID as it is (RFC 5322 dot-atom-text). */
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
/** The domain of a From address, bare (`a@b.example`) or named (`"Name" <a@b.example>`). */
const FROM_DOMAIN = /@([A-Za-z0-9.-]+)>?\s*$/;

/**
 * The Message-ID of a keyed send: the key (base64url when it is not a valid dot-atom) at the From address's domain
 * (`portal.invalid` when it has none). The same key gives the same Message-ID on every attempt.
 */
export function messageIdFor(idempotencyKey: string, from: string): string {
  const left = DOT_ATOM.test(idempotencyKey) ? idempotencyKey : Buffer.from(idempotencyKey, 'utf8').toString('base64url');
  const domain = FROM_DOMAIN.exec(from)?.[1]?.toLowerCase() ?? 'portal.invalid';
  return `<${left}@${domain}>`;
}

/**
 * SMTP has no idempotency: a server that took the message but whose answer was lost gets it again on a retry, and
 * nothing on the wire can stop that. With a key, every attempt carries one stable Message-ID (messageIdFor), so the
 * copies are recognisably the same message (mail stores and clients that collapse duplicates by Message-ID show one).
 * Without a key, nodemailer gives each send a random Message-ID.
 */
export class SmtpMailTransport implements MailTransport {
  readonly kind = 'smtp';
  private readonly transporter;
  constructor(smtpUrl: string) {
    this.transporter = nodemailer.createTransport(smtpUrl);
  }
  async send(message: MailMessage, opts: DeliveryOptions = {}): Promise<void> {
    await this.transporter.sendMail({
      from: message.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      ...(opts.idempotencyKey ? { messageId: messageIdFor(opts.idempotencyKey, message.from) } : {}),
    });
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
 * delivers it through the real transport, retried with backoff when that transport fails. Every attempt of one job
 * sends with the job's idempotency key (jobIdempotencyKey), so an attempt that failed after the provider had taken
 * the message (its answer lost, the run timed out) does not deliver it twice: the sandbox inbox keeps one message,
 * and over SMTP the copies share one Message-ID. A key given to send() is not used: the job's own key is.
 *
 * Mails carry working links (reset, activation, e-mail change) and personal text, so the job kind is sealed
 * (DefineOptions.sealed): the whole message, recipient included (the queue needs none of it), is stored encrypted
 * under a key derived from TOKEN_SECRET, and the job's row is deleted once the mail is delivered. A copy of the
 * database holds no link that works, as account_links holds only their hashes.
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
    await jobs.define<MailMessage>(MAIL_SEND_JOB, (message, job) => delivery.send(message, { idempotencyKey: jobIdempotencyKey(job) }), {
      ...retry,
      sealed: true,
    });
    return new QueuedMailTransport(jobs, delivery);
  }

  async send(message: MailMessage, opts: SendMailOptions = {}): Promise<void> {
    await this.jobs.send(MAIL_SEND_JOB, message, opts.tx ? { tx: opts.tx } : undefined);
  }
}
