import type { BrandManifest } from '@portal/core';
import type { MailMessage } from '@portal/server';
import { AccountLinks } from '../contract';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

interface LinkMail {
  brand: BrandManifest;
  /** The brand site's address, e.g. http://finance.localhost:8080. */
  site: string;
  to: string;
  firstName: string;
  urlId: string;
}

function compose(m: LinkMail, subject: string, intro: string, link: string, validity: string, ignore: string): MailMessage {
  const b = m.brand;
  const sign = `Questions? Contact us at ${b.contacts.supportEmail} or ${b.contacts.phone}.`;
  const text = [`Hello ${m.firstName},`, '', intro, '', link, '', validity, ignore, '', sign, `${b.displayName} - ${m.site}`].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1d2433">
<p>Hello ${esc(m.firstName)},</p>
<p>${esc(intro)}</p>
<p><a href="${esc(link)}">${esc(link)}</a></p>
<p>${esc(validity)} ${esc(ignore)}</p>
<p>${esc(sign)}</p>
<p><a href="${esc(m.site)}/">${esc(b.displayName)}</a></p>
</body></html>`;
  return {
    from: `"${b.displayName.replace(/["\\]/g, '')}" <${b.contacts.supportEmail}>`,
    to: m.to,
    subject,
    text,
    html,
    brand: b.id,
  };
}

export function activationMail(m: LinkMail): MailMessage {
  return compose(
    m,
    `Activate your ${m.brand.displayName} account`,
    `Thank you for registering with ${m.brand.displayName}. To activate your account, open this link, confirm your password and choose two security questions:`,
    `${m.site}${AccountLinks.activate(m.urlId)}`,
    'The link can be used once and expires in 24 hours.',
    'If you did not register, you can ignore this e-mail.',
  );
}

export function resetMail(m: LinkMail): MailMessage {
  return compose(
    m,
    `Reset your ${m.brand.displayName} password`,
    `We received a request to reset the password of your ${m.brand.displayName} account. To choose a new password, open this link:`,
    `${m.site}${AccountLinks.reset(m.urlId)}`,
    'The link can be used once and expires in 1 hour.',
    'If you did not ask to reset your password, you can ignore this e-mail: your password stays as it is.',
  );
}

export function confirmEmailMail(m: LinkMail): MailMessage {
  return compose(
    m,
    `Confirm your new ${m.brand.displayName} e-mail address`,
    `You asked to use this address for your ${m.brand.displayName} account. To confirm it, open this link:`,
    `${m.site}${AccountLinks.confirmEmail(m.urlId)}`,
    'The link can be used once and expires in 24 hours. Until then your account keeps its current address.',
    'If you did not ask for this change, you can ignore this e-mail.',
  );
}

/** Tells the current address that a change was requested, so its owner notices a change they did not make. */
export function emailChangeNoticeMail(m: Omit<LinkMail, 'urlId'> & { newEmail: string }): MailMessage {
  const masked = m.newEmail.replace(/^(.).*(@.*)$/, '$1***$2');
  return compose(
    { ...m, urlId: '' },
    `Your ${m.brand.displayName} e-mail address is being changed`,
    `Someone signed in to your ${m.brand.displayName} account asked to change its e-mail address to ${masked}. The change takes effect only when the link sent to that address is opened.`,
    `${m.site}/login`,
    `If this was not you, sign in, change your password and contact us at ${m.brand.contacts.supportEmail}.`,
    'If it was you, there is nothing more to do here.',
  );
}
