import type { BrandManifest } from '@portal/core';
import { type MailMessage, type Message, msg } from '@portal/server';
import { AccountLinks } from '../contract';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

interface LinkMail {
  brand: BrandManifest;
  /** The brand site's address, e.g. http://finance.localhost:8080. */
  site: string;
  to: string;
  firstName: string;
  urlId: string;
  /**
   * The recipient's language's text of a message: `ctx.t` in a request of the recipient themselves, else
   * `services.messages.t(message, <their language>)`. English without it.
   */
  t?: (message: Message) => string;
}

interface Parts {
  subject: Message;
  intro: Message;
  link: string;
  validity: Message;
  ignore: Message;
}

function compose(m: LinkMail, parts: Parts): MailMessage {
  const b = m.brand;
  const t = m.t ?? ((message: Message) => String(message));
  const hello = t(msg('Hello {{name}},', { name: m.firstName }));
  const intro = t(parts.intro);
  const validity = t(parts.validity);
  const ignore = t(parts.ignore);
  const sign = t(msg('Questions? Contact us at {{email}} or {{phone}}.', { email: b.contacts.supportEmail, phone: b.contacts.phone }));
  const link = parts.link;
  const text = [hello, '', intro, '', link, '', validity, ignore, '', sign, `${b.displayName} - ${m.site}`].join('\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1d2433">
<p>${esc(hello)}</p>
<p>${esc(intro)}</p>
<p><a href="${esc(link)}">${esc(link)}</a></p>
<p>${esc(validity)} ${esc(ignore)}</p>
<p>${esc(sign)}</p>
<p><a href="${esc(m.site)}/">${esc(b.displayName)}</a></p>
</body></html>`;
  return {
    from: `"${b.displayName.replace(/["\\]/g, '')}" <${b.contacts.supportEmail}>`,
    to: m.to,
    subject: t(parts.subject),
    text,
    html,
    brand: b.id,
  };
}

export function activationMail(m: LinkMail): MailMessage {
  const brand = m.brand.displayName;
  return compose(m, {
    subject: msg('Activate your {{brand}} account', { brand }),
    intro: msg('Thank you for registering with {{brand}}. To activate your account, open this link, confirm your password and choose two security questions:', {
      brand,
    }),
    link: `${m.site}${AccountLinks.activate(m.urlId)}`,
    validity: 'The link can be used once and expires in 24 hours.',
    ignore: 'If you did not register, you can ignore this e-mail.',
  });
}

export function resetMail(m: LinkMail): MailMessage {
  const brand = m.brand.displayName;
  return compose(m, {
    subject: msg('Reset your {{brand}} password', { brand }),
    intro: msg('We received a request to reset the password of your {{brand}} account. To choose a new password, open this link:', { brand }),
    link: `${m.site}${AccountLinks.reset(m.urlId)}`,
    validity: 'The link can be used once and expires in 1 hour.',
    ignore: 'If you did not ask to reset your password, you can ignore this e-mail: your password stays as it is.',
  });
}

export function confirmEmailMail(m: LinkMail): MailMessage {
  const brand = m.brand.displayName;
  return compose(m, {
    subject: msg('Confirm your new {{brand}} e-mail address', { brand }),
    intro: msg('You asked to use this address for your {{brand}} account. To confirm it, open this link:', { brand }),
    link: `${m.site}${AccountLinks.confirmEmail(m.urlId)}`,
    validity: 'The link can be used once and expires in 24 hours. Until then your account keeps its current address.',
    ignore: 'If you did not ask for this change, you can ignore this e-mail.',
  });
}

/** Tells the current address that a change was requested, so its owner notices a change they did not make. */
export function emailChangeNoticeMail(m: Omit<LinkMail, 'urlId'> & { newEmail: string }): MailMessage {
  const brand = m.brand.displayName;
  const masked = m.newEmail.replace(/^(.).*(@.*)$/, '$1***$2');
  return compose(
    { ...m, urlId: '' },
    {
      subject: msg('Your {{brand}} e-mail address is being changed', { brand }),
      intro: msg(
        'Someone signed in to your {{brand}} account asked to change its e-mail address to {{address}}. The change takes effect only when the link sent to that address is opened.',
        { brand, address: masked },
      ),
      link: `${m.site}/login`,
      validity: msg('If this was not you, sign in, change your password and contact us at {{email}}.', { email: m.brand.contacts.supportEmail }),
      ignore: 'If it was you, there is nothing more to do here.',
    },
  );
}
