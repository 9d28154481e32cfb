import type { SandboxMail } from './mail';

export type { SandboxMail };

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
