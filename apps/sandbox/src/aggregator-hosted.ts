import { type Institution, type LoginForm, STALE_NEW_PASSWORD, TEST_PASSWORD, TEST_USERS } from './aggregator-data';
import { escapeHtml } from './html';

export interface AggregatorView {
  token?: string;
  parentOrigin?: string;
  q?: string;
  results?: readonly Institution[];
  institution?: Institution;
  form?: LoginForm;
  linkId?: number | null;
  note?: string;
  error?: string;
  done?: string;
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;padding:1rem;color:#1d2433;background:#fff;min-height:793px}
h1{font-size:1.15rem;margin:0 0 .75rem}form{display:grid;gap:.75rem;max-width:28rem}label{display:grid;gap:.25rem;font-weight:600}
input,select{font:inherit;padding:.45rem .6rem;border:1px solid #6b7385;border-radius:.3rem}button{font:inherit;padding:.5rem 1rem;border-radius:.3rem;
border:1px solid #1d3f91;background:#1d3f91;color:#fff;cursor:pointer}ul{padding-left:1.2rem}a{color:#1d3f91}
button.link{background:none;border:0;padding:0;color:#1d3f91;text-decoration:underline;text-align:left}
.error{color:#a4161a;font-weight:600}.note{color:#4a5263;font-size:.9rem}table{border-collapse:collapse;font-size:.85rem}td,th{border:1px solid #d7dbe3;padding:.2rem .4rem;text-align:left}`;

/** The test credentials as a table, shown on every screen of the sandbox's linking page. */
export function testCredentialsHtml(): string {
  const rows = Object.entries(TEST_USERS)
    .map(([user, u]) => `<tr><td><code>${escapeHtml(user)}</code></td><td>${escapeHtml(u.note)}</td></tr>`)
    .join('');
  return `<details class="note"><summary>Sandbox test credentials</summary>
<p>Any institution. Password <code>${TEST_PASSWORD}</code> for every user ID below; anything else fails. The stale user's new password is <code>${STALE_NEW_PASSWORD}</code>.</p>
<table><thead><tr><th>User ID</th><th>What happens</th></tr></thead><tbody>${rows}</tbody></table></details>`;
}

function fieldHtml(f: LoginForm['fields'][number]): string {
  const name = `f_${escapeHtml(f.name)}`;
  if (f.type === 'option') {
    const opts = (f.options ?? []).map((o) => `<option value="${escapeHtml(o.value)}">${escapeHtml(o.label)}</option>`).join('');
    return `<label>${escapeHtml(f.label)}<select name="${name}"><option value="">Choose...</option>${opts}</select></label>`;
  }
  return `<label>${escapeHtml(f.label)}<input name="${name}" type="${f.type === 'password' ? 'password' : 'text'}" autocomplete="off" ${
    f.maxLength ? `maxlength="${f.maxLength}"` : ''
  }></label>`;
}

/**
 * The hosted linking page: search, the institution's login form, multi-factor steps, done. No inline script. Every
 * step is a POST carrying the token in its body (the page is opened by one, as the real FastLink is): the token, a
 * bearer credential to the member's linking session, is never in an address, a history entry or the access log.
 */
export function aggregatorPage(v: AggregatorView): string {
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link a bank account</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>`;
  if (!v.token) return `${head}<body><h1>Link a bank account</h1><p class="error" role="alert">${escapeHtml(v.error ?? 'Not available.')}</p></body></html>`;
  const token = `<input type="hidden" name="token" value="${escapeHtml(v.token)}">`;
  const error = v.error ? `<p class="error" role="alert">${escapeHtml(v.error)}</p>` : '';
  let main: string;
  if (v.done) {
    main = `<h1>Account linked</h1><p role="status" data-linked="${v.linkId ?? ''}">${escapeHtml(v.done)}</p>
<form method="post" action="/aggregator/fastlink">${token}<button type="submit">Link another account</button></form>`;
  } else if (v.institution && v.form) {
    const mfa = v.form.formType !== 'login';
    main = `<h1>${escapeHtml(v.institution.name)}</h1>${v.note ? `<p class="note">${escapeHtml(v.note)}</p>` : ''}${error}
<form method="post" action="/aggregator/fastlink">${token}
<input type="hidden" name="step" value="${mfa ? 'mfa' : 'login'}"><input type="hidden" name="institutionId" value="${v.institution.id}">
${mfa ? `<input type="hidden" name="linkId" value="${v.linkId ?? ''}">` : ''}
<p class="note">${escapeHtml(v.form.label)}</p>${v.form.fields.map(fieldHtml).join('\n')}
<button type="submit">${mfa ? 'Continue' : 'Link account'}</button></form>
<form method="post" action="/aggregator/fastlink">${token}<button type="submit" class="link">Back to search</button></form>`;
  } else {
    const list = (v.results ?? [])
      .map((i) => `<li><button type="submit" class="link" name="institutionId" value="${i.id}">${escapeHtml(i.name)}</button></li>`)
      .join('');
    main = `<h1>Link a bank account</h1>${error}
<form method="post" action="/aggregator/fastlink" role="search">${token}<label>Search for your bank<input name="q" value="${escapeHtml(v.q ?? '')}" minlength="3"></label>
<button type="submit">Search</button></form><h2 class="note">${v.q && v.q.length >= 3 ? 'Results' : 'Popular banks'}</h2>${
      list ? `<form method="post" action="/aggregator/fastlink">${token}<ul>${list}</ul></form>` : '<ul><li>No institution matches.</li></ul>'
    }`;
  }
  return `${head}<body data-parent-origin="${escapeHtml(v.parentOrigin ?? '')}"><main>${main}${testCredentialsHtml()}</main>
<script src="/aggregator/fastlink.js"></script></body></html>`;
}

/** Tells the embedding page (only its exact origin) the frame's height and when an account has been linked. */
export const AGGREGATOR_SCRIPT = `(function () {
  'use strict';
  var parentOrigin = document.body.getAttribute('data-parent-origin');
  if (!parentOrigin || window.parent === window) return;
  var linked = document.querySelector('[data-linked]');
  var msg = { source: 'sandbox-aggregator', action: linked ? 'linked' : 'loaded', height: Math.ceil(document.documentElement.scrollHeight) };
  if (linked) msg.providerAccountId = Number(linked.getAttribute('data-linked')) || null;
  window.parent.postMessage(msg, parentOrigin);
})();
`;
