import type { DeliveryOptions } from './mail';

/** A text message to one phone, E.164 (+1 and ten digits). */
export interface SmsMessage {
  to: string;
  text: string;
  /** The brand whose site sent it; the sandbox inbox shows it. */
  brand?: string;
}

/** What a carrier lookup knows of a number: phoneNumber is null when the number does not exist. */
export interface PhoneLookup {
  phoneNumber: string | null;
  lineType: 'mobile' | 'landline' | 'voip' | null;
  carrier: string | null;
}

/** Text messages and carrier lookups. Implementation: the sandbox SMS provider (SANDBOX_URL), over HTTP. */
export interface SmsTransport {
  readonly kind: string;
  /** With opts.idempotencyKey (the job's key on the queued path), every attempt of one send delivers one message. */
  send(message: SmsMessage, opts?: DeliveryOptions): Promise<void>;
  lookup(e164: string): Promise<PhoneLookup>;
}

export class SandboxSmsTransport implements SmsTransport {
  readonly kind = 'sandbox';
  private readonly base: string;
  constructor(sandboxUrl: string) {
    this.base = sandboxUrl.replace(/\/$/, '');
  }
  /** With a key, a repeated send answers the first message (200) and the inbox keeps one. */
  async send(message: SmsMessage, opts: DeliveryOptions = {}): Promise<void> {
    const res = await fetch(`${this.base}/sms/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : {}) },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`sandbox SMS refused the message: ${res.status} ${await res.text()}`);
  }
  async lookup(e164: string): Promise<PhoneLookup> {
    const res = await fetch(`${this.base}/sms/api/lookup?number=${encodeURIComponent(e164)}`, { signal: AbortSignal.timeout(10_000) });
    if (res.status === 404) return { phoneNumber: null, lineType: null, carrier: null };
    if (!res.ok) throw new Error(`sandbox carrier lookup failed: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as Partial<PhoneLookup>;
    return {
      phoneNumber: typeof body.phoneNumber === 'string' ? body.phoneNumber : null,
      lineType: body.lineType === 'mobile' || body.lineType === 'landline' || body.lineType === 'voip' ? body.lineType : null,
      carrier: typeof body.carrier === 'string' ? body.carrier : null,
    };
  }
}

export function createSmsTransport(opts: { sandboxUrl: string }): SmsTransport {
  return new SandboxSmsTransport(opts.sandboxUrl);
}
