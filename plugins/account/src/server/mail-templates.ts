import type { BrandManifest, Language } from '@portal/core';
import { brandedMail, type MailMessage, type Message, msg } from '@portal/server';
import { AccountLinks } from '../contract';

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
  /** The recipient's language, for the HTML part's lang. */
  language?: Language;
}

interface Parts {
  subject: Message;
  intro: Message;
  /** The button's words. */
  action: Message;
  link: string;
  validity: Message;
  ignore: Message;
}

/** An account mail in the brand's layout: the greeting, why it was sent, the button, how long the link lasts. */
function compose(m: LinkMail, parts: Parts): MailMessage {
  const t = m.t ?? ((message: Message) => String(message));
  return brandedMail({
    brand: m.brand,
    site: m.site,
    to: m.to,
    subject: t(parts.subject),
    language: m.language,
    greeting: t(msg('Hello {{name}},', { name: m.firstName })),
    paragraphs: [t(parts.intro)],
    action: { label: t(parts.action), url: parts.link },
    notes: [t(parts.validity), t(parts.ignore)],
    t,
  });
}

export function activationMail(m: LinkMail): MailMessage {
  const brand = m.brand.displayName;
  return compose(m, {
    subject: msg('Activate your {{brand}} account', { brand }),
    intro: msg(
      'Thank you for registering with {{brand}}. To activate your account, use the button below, then confirm your password and choose two security questions.',
      {
        brand,
      },
    ),
    action: 'Activate my account',
    link: `${m.site}${AccountLinks.activate(m.urlId)}`,
    validity: 'The link can be used once and expires in 24 hours.',
    ignore: 'If you did not register, you can ignore this e-mail.',
  });
}

export function resetMail(m: LinkMail): MailMessage {
  const brand = m.brand.displayName;
  return compose(m, {
    subject: msg('Reset your {{brand}} password', { brand }),
    intro: msg('We received a request to reset the password of your {{brand}} account. To choose a new password, use the button below.', { brand }),
    action: 'Choose a new password',
    link: `${m.site}${AccountLinks.reset(m.urlId)}`,
    validity: 'The link can be used once and expires in 1 hour.',
    ignore: 'If you did not ask to reset your password, you can ignore this e-mail: your password stays as it is.',
  });
}

export function confirmEmailMail(m: LinkMail): MailMessage {
  const brand = m.brand.displayName;
  return compose(m, {
    subject: msg('Confirm your new {{brand}} e-mail address', { brand }),
    intro: msg('You asked to use this address for your {{brand}} account. To confirm it, use the button below.', { brand }),
    action: 'Confirm this address',
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
      action: 'Sign in',
      link: `${m.site}/login`,
      validity: msg('If this was not you, sign in, change your password and contact us at {{email}}.', { email: m.brand.contacts.supportEmail }),
      ignore: 'If it was you, there is nothing more to do here.',
    },
  );
}

/**
 * Tells a login's old and new address that an administrator changed its sign-in name (staff user administration
 * re-addresses a login to another contact): the user signs in with the new name from now on, and account mails go there.
 */
export function signInNameNoticeMail(m: Omit<LinkMail, 'urlId'> & { newName: string }): MailMessage {
  const brand = m.brand.displayName;
  return compose(
    { ...m, urlId: '' },
    {
      subject: msg('Your {{brand}} sign-in name has changed', { brand }),
      intro: msg('An administrator changed the sign-in name of your {{brand}} account. Your sign-in name is now {{name}}; your password stays the same.', {
        brand,
        name: m.newName,
      }),
      action: 'Sign in',
      link: `${m.site}/login`,
      validity: msg('E-mails about this account, such as password resets, now go to {{name}}.', { name: m.newName }),
      ignore: msg('If you did not expect this change, contact us at {{email}}.', { email: m.brand.contacts.supportEmail }),
    },
  );
}
