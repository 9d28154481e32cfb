import { escapeHtml } from './html';

export interface HostedFormView {
  token?: string;
  parentOrigin?: string;
  showZip?: boolean;
  editing?: { paymentProfileId: number; cardNumber: string; expiration: string } | null;
  saved?: { paymentProfileId: number; cardNumber: string; cardType: string; isDefault: boolean }[];
  error?: string;
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;padding:1rem;color:#1d2433;background:#fff}
h1{font-size:1.15rem;margin:0 0 .75rem}form{display:grid;gap:.75rem;max-width:26rem}
label{display:grid;gap:.25rem;font-weight:600}input{font:inherit;padding:.45rem .6rem;border:1px solid #6b7385;border-radius:.3rem}
input:focus{outline:3px solid #2b5fd9;outline-offset:1px}.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
.actions{display:flex;gap:.5rem}button{font:inherit;padding:.5rem 1rem;border-radius:.3rem;border:1px solid #1d3f91;cursor:pointer}
button[type=submit]{background:#1d3f91;color:#fff}button[type=button]{background:#fff;color:#1d3f91}
.error{color:#a4161a;font-weight:600;min-height:1.2em}ul{padding-left:1.2rem;margin:.25rem 0 1rem}.note{color:#4a5263;font-size:.9rem}`;

/** The hosted card form: no inline script (its CSP allows scripts from this origin only), data in data- attributes. */
export function hostedFormPage(v: HostedFormView): string {
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Card details</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>`;
  if (v.error && !v.token) {
    return `${head}<body><h1>Card details</h1><p class="error" role="alert">${escapeHtml(v.error)}</p></body></html>`;
  }
  const saved = v.saved?.length
    ? `<h2 class="note">Saved cards</h2><ul>${v.saved
        .map((s) => `<li>${escapeHtml(s.cardType)} ${escapeHtml(s.cardNumber)}${s.isDefault ? ' (default)' : ''}</li>`)
        .join('')}</ul>`
    : '';
  const editing = v.editing;
  return `${head}<body data-parent-origin="${escapeHtml(v.parentOrigin ?? '')}" data-token="${escapeHtml(v.token ?? '')}" data-profile="${editing ? editing.paymentProfileId : ''}">
<main>
<h1>${editing ? `Edit card ${escapeHtml(editing.cardNumber)}` : 'Add a card'}</h1>
${saved}
<form id="card-form" novalidate>
<label>Card number${editing ? ' (leave empty to keep the current number)' : ''}
<input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" maxlength="23" ${editing ? '' : 'required'} aria-describedby="form-error"></label>
<div class="row">
<label>Expiration (MM/YY)<input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7" required value="${editing ? escapeHtml(editing.expiration.replace(/\/(\d{2})(\d{2})$/, '/$2')) : ''}"></label>
<label>Card code (CVV)<input id="cvv" name="cvv" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required></label>
</div>
${v.showZip ? '<label>ZIP code<input id="zip" name="zip" autocomplete="postal-code" maxlength="10"></label>' : ''}
<p id="form-error" class="error" role="alert" aria-live="assertive"></p>
<div class="actions"><button type="submit" id="save">Save</button><button type="button" id="cancel">Cancel</button></div>
<p class="note">Test cards: 4111 1111 1111 1111 approves, 4000 0000 0000 0002 declines, 4000 0000 0000 0101 fails the card code, 4000 0000 0000 0069 is expired, 4000 0000 0000 0341 saves but declines charges, 4000 0000 0000 0259 saves and its charges are held for review.</p>
</form>
</main>
<script src="/customer/hosted.js"></script>
</body></html>`;
}

/**
 * The form's script. It posts to the parent only with the parent's exact origin as the target, and takes messages
 * only from that origin ('ping' → 'loaded' again, so a parent that attached its listener late still learns the height).
 */
export const HOSTED_SCRIPT = `(function () {
  'use strict';
  var body = document.body;
  var parentOrigin = body.getAttribute('data-parent-origin');
  var token = body.getAttribute('data-token');
  var form = document.getElementById('card-form');
  if (!form || !parentOrigin || !token || window.parent === window) return;
  var errorBox = document.getElementById('form-error');
  var tell = function (msg) {
    msg.source = 'sandbox-gateway';
    window.parent.postMessage(msg, parentOrigin);
  };
  var height = function () { return Math.ceil(document.documentElement.scrollHeight); };
  window.addEventListener('message', function (event) {
    if (event.origin !== parentOrigin || event.source !== window.parent) return;
    if (event.data && event.data.action === 'ping') tell({ action: 'loaded', height: height() });
  });
  document.getElementById('cancel').addEventListener('click', function () { tell({ action: 'cancel' }); });
  var saving = false;
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    if (saving) return;
    saving = true;
    errorBox.textContent = '';
    var zip = document.getElementById('zip');
    var payload = {
      token: token,
      cardNumber: document.getElementById('cardNumber').value,
      expiry: document.getElementById('expiry').value,
      cvv: document.getElementById('cvv').value,
    };
    if (zip) payload.zip = zip.value;
    document.getElementById('save').disabled = true;
    fetch('/customer/api/save', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) })
      .then(function (res) { return res.json().then(function (data) { return { ok: res.ok, data: data }; }); })
      .then(function (r) {
        if (r.ok) {
          tell({ action: 'successfulSave', paymentProfileId: r.data.paymentProfileId });
          errorBox.textContent = '';
          form.hidden = true;
          var done = document.createElement('p');
          done.setAttribute('role', 'status');
          done.textContent = 'Card saved.';
          form.parentNode.appendChild(done);
        } else {
          var message = (r.data && r.data.error) || 'The card could not be saved.';
          errorBox.textContent = message;
          tell({ action: 'error', message: message });
        }
      })
      .catch(function () {
        errorBox.textContent = 'The card could not be saved. Please try again.';
        tell({ action: 'error', message: errorBox.textContent });
      })
      .then(function () {
        saving = false;
        document.getElementById('save').disabled = false;
      });
  });
  tell({ action: 'loaded', height: height() });
  tell({ action: 'resizeWindow', height: height() });
})();
`;
