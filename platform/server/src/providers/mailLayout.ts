import { type BrandManifest, type Language, type Message, msg } from '@portal/core';
import { PALETTES } from '@portal/themes/palettes';
import type { MailMessage } from './mail';

/** The colours of a mail without a brand (a job with no site behind it): the staff theme's. */
const NEUTRAL = { brandAccent: '#2f3b52', link: '#24508f', body: '#f4f5f7' };
const TEXT = '#1d2433';
const MUTED = '#4b5565';
const BORDER = '#d7dbe3';
const FONT = "system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** What a mail says, already in the recipient's language (`t` words the layout's own lines the same way). */
export interface BrandedMail {
  brand: BrandManifest | null;
  /** The brand site's address (http://finance.localhost:8080): the footer links to it. */
  site?: string | null;
  to: string;
  subject: string;
  /** Written as the HTML's language. */
  language?: Language;
  greeting: string;
  paragraphs: readonly string[];
  /** The one thing to do: a button in the HTML, "label: address" in the text. */
  action?: { label: string; url: string };
  /** Facts, as a two-column table in the HTML and "label: value" lines in the text (a receipt's amount, card, date). */
  details?: readonly { label: string; value: string }[];
  /** Smaller print under the action (how long a link lasts, what to do if it was not you). */
  notes?: readonly string[];
  t: (message: Message) => string;
}

/** The brand's sender: its display name and support address (quotes and backslashes cannot break out of the name). */
export function brandSender(brand: BrandManifest | null): string {
  return brand ? `"${brand.displayName.replace(/["\\]/g, '')}" <${brand.contacts.supportEmail}>` : 'no-reply@portal.example.com';
}

/**
 * A mail in the brand's layout: an HTML part (a band in the brand's colour with its name, the text, one button for the
 * action with its address spelled out under it for mail readers that show no buttons, the facts as a table, the
 * brand's contacts in the footer; inline styles and tables, as mail readers need) and a plain-text part that says the
 * same. Every piece of text is escaped: names, addresses and staff's descriptions cannot add markup.
 */
export function brandedMail(m: BrandedMail): MailMessage {
  const palette = (m.brand?.theme && PALETTES[m.brand.theme]) || NEUTRAL;
  const name = m.brand?.displayName ?? '';
  const signOff = m.brand
    ? m.t(msg('Questions? Contact us at {{email}} or {{phone}}.', { email: m.brand.contacts.supportEmail, phone: m.brand.contacts.phone }))
    : '';
  const fallback = m.t('If the button does not work, copy this address into your browser:');

  const lines = [
    m.greeting,
    '',
    ...m.paragraphs.flatMap((p) => [p, '']),
    ...(m.action ? [`${m.action.label}: ${m.action.url}`, ''] : []),
    ...(m.details?.length ? [...m.details.map((d) => `${d.label}: ${d.value}`), ''] : []),
    ...(m.notes?.length ? [...m.notes, ''] : []),
    ...(signOff ? [signOff] : []),
    ...(m.brand ? [m.site ? `${name} - ${m.site}` : name] : []),
  ];
  while (lines.at(-1) === '') lines.pop();
  const text = lines.join('\n');

  const p = (s: string, style = '') => `<p style="margin:0 0 16px;${style}">${esc(s)}</p>`;
  const button = m.action
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 16px"><tr><td style="border-radius:6px;background:${palette.brandAccent}">` +
      `<a href="${esc(m.action.url)}" style="display:inline-block;padding:12px 22px;color:#ffffff;background:${palette.brandAccent};border-radius:6px;font-weight:600;text-decoration:none">${esc(m.action.label)}</a>` +
      `</td></tr></table>` +
      `<p style="margin:0 0 16px;font-size:14px;color:${MUTED}">${esc(fallback)}<br><a href="${esc(m.action.url)}" style="color:${palette.link};word-break:break-all">${esc(m.action.url)}</a></p>`
    : '';
  const details = m.details?.length
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:0 0 16px;width:100%">${m.details
        .map(
          (d) =>
            `<tr><th scope="row" style="text-align:left;padding:6px 16px 6px 0;border-bottom:1px solid ${BORDER};font-weight:600;white-space:nowrap">${esc(d.label)}</th>` +
            `<td style="padding:6px 0;border-bottom:1px solid ${BORDER}">${esc(d.value)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const notes = (m.notes ?? []).map((n) => p(n, `font-size:14px;color:${MUTED}`)).join('');
  const footer = m.brand
    ? `<tr><td style="padding:16px 24px;border-top:1px solid ${BORDER};font-size:14px;color:${MUTED}">${esc(signOff)}` +
      (m.site ? `<br><a href="${esc(m.site)}/" style="color:${palette.link}">${esc(name)}</a>` : `<br>${esc(name)}`) +
      `</td></tr>`
    : '';
  const html =
    `<!doctype html><html lang="${m.language ?? 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${esc(m.subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:${palette.body}">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${palette.body}"><tr><td align="center" style="padding:24px 12px">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border:1px solid ${BORDER};border-radius:8px;font-family:${FONT};font-size:16px;line-height:1.5;color:${TEXT}">` +
    (m.brand
      ? `<tr><td style="background:${palette.brandAccent};color:#ffffff;padding:16px 24px;font-size:20px;font-weight:600;border-radius:8px 8px 0 0">${esc(name)}</td></tr>`
      : '') +
    `<tr><td style="padding:24px">` +
    `<h1 style="margin:0 0 16px;font-size:20px;line-height:1.3">${esc(m.subject)}</h1>` +
    p(m.greeting) +
    m.paragraphs.map((x) => p(x)).join('') +
    button +
    details +
    notes +
    `</td></tr>${footer}</table></td></tr></table></body></html>`;

  return {
    from: brandSender(m.brand),
    to: m.to,
    subject: m.subject,
    text,
    html,
    ...(m.brand ? { brand: m.brand.id } : {}),
  };
}
