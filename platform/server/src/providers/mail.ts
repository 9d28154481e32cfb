import nodemailer from 'nodemailer';

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
