import { expect, type Locator, type Page } from '@playwright/test';
import { rawManifests } from '@portal/brands';
import { latestMailTo, linksIn } from '../../apps/sandbox/src/client';
import { SANDBOX_URL } from '../playwright.config';
import { site } from '../support';

export { rawManifests, SANDBOX_URL };

/** A user name no other run or test uses; the server requires an e-mail address. */
export const uniqueEmail = (tag: string) => `e2e.${tag}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;

/** '-' is not an allowed password character; this meets every rule of the policy. */
export const PASSWORD = 'Test$pass1';

/** The link to this site in the newest mail to the address whose subject includes the text. */
export async function mailedLink(address: string, subjectIncludes: string, path: RegExp): Promise<string> {
  const mail = await latestMailTo(SANDBOX_URL, address, { subjectIncludes, timeoutMs: 15_000 });
  const link = linksIn(mail).find((l) => path.test(l));
  if (!link) throw new Error(`no ${path} link in "${mail.subject}"`);
  return link;
}

/**
 * Registers and activates an account through the API (setup for tests about what comes after). The calls
 * go from the browser, on the brand's own host (Node cannot resolve <brand>.localhost).
 */
export async function createActiveUser(page: Page, brand: string, tag: string, password = PASSWORD): Promise<string> {
  const userName = uniqueEmail(tag);
  await page.goto(site(brand, '/login'));
  const reg = await page.evaluate(async (body) => {
    const res = await fetch('/api/account/user/register', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    return { ok: res.ok, text: await res.text() };
  }, new URLSearchParams({ UserName: userName, Password: password, FirstName: 'Eve', LastName: 'Tester' }).toString());
  expect(reg.ok, reg.text).toBe(true);
  const link = await mailedLink(userName, 'Activate', /\/login\/activate\//);
  const urlId = decodeURIComponent(link.split('/login/activate/')[1] ?? '');
  const act = await page.evaluate(
    async ({ urlId, password }) => {
      const questions = (await (await fetch('/api/account/securityquestions')).json()).Data as { Id: number }[];
      const res = await fetch('/api/account/activate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          UrlID: urlId,
          Password: password,
          ConfirmPassword: password,
          Questions: [
            { Id: questions[0]?.Id, AnswerText: 'blue' },
            { Id: questions[1]?.Id, AnswerText: 'paris' },
          ],
        }),
      });
      return { ok: res.ok, text: await res.text() };
    },
    { urlId, password },
  );
  expect(act.ok, act.text).toBe(true);
  // These accounts are for what comes after registration: finish the brand's registration wizard (finance's has no
  // membership steps, so the server lets it complete at once), or the step guard keeps the user in it.
  const done = await page.evaluate(
    async ({ userName, password }) => {
      const token = await fetch('/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'password', UserName: userName, Password: password }).toString(),
      });
      const t = (await token.json()) as { access_token: string; form_token: string };
      const headers = { authorization: `Bearer ${t.access_token}`, 'x-form-token': t.form_token };
      for (const step of [2, 3, 4]) await fetch(`/api/account/user/register/status?status=${step}`, { method: 'POST', headers });
      const res = await fetch('/api/account/registered?status=true', { method: 'POST', headers });
      await fetch('/api/account/user/signout', { method: 'POST', headers });
      return { ok: res.ok, text: await res.text() };
    },
    { userName, password },
  );
  expect(done.ok, done.text).toBe(true);
  return userName;
}

/** A text or password input by the start of its accessible name (kit labels end with "(required)"). */
export const input = (scope: Page | Locator, name: string) => scope.getByRole('textbox', { name: new RegExp(`^${name}`) });

/** Chooses an option of a react-aria select by keyboard-free clicks. */
export async function choose(page: Page, label: RegExp, option: number) {
  await page.getByRole('button', { name: label }).click();
  await page.getByRole('listbox').getByRole('option').nth(option).click();
}
