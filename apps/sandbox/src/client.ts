import type { SandboxMail } from './mail';
import type { SandboxSms } from './sms';

export type { SandboxMail, SandboxSms };

/** All mail the sandbox holds for an address, newest first. */
export async function mailTo(sandboxUrl: string, address: string): Promise<SandboxMail[]> {
  const res = await fetch(`${sandboxUrl.replace(/\/$/, '')}/mail/api/messages?to=${encodeURIComponent(address)}`);
  if (!res.ok) throw new Error(`sandbox inbox answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as SandboxMail[];
}

/**
 * The newest message to an address, waiting for it to arrive (mail may be sent after the API answered).
 * afterId: only a message newer than this one counts (e.g. the second reset mail).
 */
export async function latestMailTo(
  sandboxUrl: string,
  address: string,
  opts: { timeoutMs?: number; afterId?: number; subjectIncludes?: string } = {},
): Promise<SandboxMail> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    const found = (await mailTo(sandboxUrl, address)).find(
      (m) => m.id > (opts.afterId ?? 0) && (!opts.subjectIncludes || m.subject.includes(opts.subjectIncludes)),
    );
    if (found) return found;
    if (Date.now() >= deadline) throw new Error(`no mail to ${address} arrived in the sandbox inbox at ${sandboxUrl}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The http(s) links in a message's text, in order. */
export function linksIn(mail: Pick<SandboxMail, 'text'>): string[] {
  return [...mail.text.matchAll(/https?:\/\/[^\s<>"'`]+/g)].map((m) => m[0].replace(/[.,;:!?)\]}]+$/, ''));
}

/** All text messages the sandbox holds for a number (+1 and ten digits, or the ten digits), newest first. */
export async function smsTo(sandboxUrl: string, number: string): Promise<SandboxSms[]> {
  const res = await fetch(`${sandboxUrl.replace(/\/$/, '')}/sms/api/messages?to=${encodeURIComponent(number)}`);
  if (!res.ok) throw new Error(`sandbox SMS inbox answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as SandboxSms[];
}

/** The newest text message to a number, waiting for it to arrive; afterId: only a newer message counts. */
export async function latestSmsTo(sandboxUrl: string, number: string, opts: { timeoutMs?: number; afterId?: number } = {}): Promise<SandboxSms> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    const found = (await smsTo(sandboxUrl, number)).find((m) => m.id > (opts.afterId ?? 0));
    if (found) return found;
    if (Date.now() >= deadline) throw new Error(`no text message to ${number} arrived in the sandbox SMS inbox at ${sandboxUrl}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The first run of 4 to 8 digits in a message's text (a verification code). */
export function codeIn(sms: Pick<SandboxSms, 'text'>): string {
  const m = /\b(\d{4,8})\b/.exec(sms.text);
  if (!m?.[1]) throw new Error(`no code in the text message "${sms.text}"`);
  return m[1];
}
