import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { latestMailTo } from '../../apps/sandbox/src/client';
import { type Cue, webVtt } from '../../scripts/lib/webvtt';
import { SANDBOX_URL } from '../playwright.config';
import { site } from '../support';
import { Screencast } from './screencast';

/**
 * The reset-password video of the help menu (spec 01 section 2), recorded on each brand's own site in each language,
 * with captions from the help guide's steps: the sign-in page's Forgot password?, the e-mailed link, the new password,
 * and signing in with it. Output: plugins/help/src/web/videos/reset-password.<brand>.<language>.{webm,vtt}.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'plugins/help/src/web/videos');
const catalogue = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8'));
const USERS: Record<string, string> = {
  finance: 'finance.careguardfinance',
  assist: 'assist.careassist',
  card: 'card.careguard',
  quote: 'quote.carequote',
  staff: 'staff.caresupport',
};
const SIZE = { width: 1024, height: 700 };
/** The new password typed in the video (every rule of the policy met); the e2e server's database is thrown away after. */
const NEW_PASSWORD = 'Video$pass1';

for (const language of ['en', 'es'] as const) {
  const kernel = catalogue(`platform/web/src/i18n/${language}.json`);
  const account = catalogue(`plugins/account/src/web/i18n/${language}.json`);
  const steps = catalogue(`plugins/help/src/web/i18n/${language}.json`).dialogs['reset-password'].steps as string[];
  // The reset mail's button, as the server words it (its English text, or the account plugin's Spanish for it).
  const resetAction: string = language === 'es' ? catalogue('plugins/account/src/server/i18n/es.json')['Choose a new password'] : 'Choose a new password';
  for (const [brand, userName] of Object.entries(USERS)) {
    test(`reset-password video: ${brand}, ${language}`, async ({ browser }) => {
      // The language as a user's choice keeps it (the language menu's stored choice and its cookie), and the browser's own.
      const context = await browser.newContext({ viewport: SIZE, bypassCSP: true, locale: language === 'es' ? 'es-US' : 'en-US' });
      await context.addInitScript((lang) => localStorage.setItem('cq.lang', lang), language);
      await context.addCookies([{ name: 'cq.lang', value: language, url: site(brand) }]);
      const page = await context.newPage();
      const video = new Screencast(page);
      const cues: Cue[] = [];
      const caption = (n: number) => cues.push({ at: video.now(), text: steps[n] ?? '' });
      const pause = (ms = 1200) => page.waitForTimeout(ms);
      /** A pointer drawn over what is about to be pressed (the screencast shows no mouse). */
      const point = async (locator: ReturnType<typeof page.locator>) => {
        const box = await locator.boundingBox();
        if (!box) return;
        await page.evaluate(
          ({ x, y }) => {
            let dot = document.getElementById('video-pointer');
            if (!dot) {
              dot = document.createElement('div');
              dot.id = 'video-pointer';
              Object.assign(dot.style, {
                position: 'fixed',
                width: '28px',
                height: '28px',
                margin: '-14px 0 0 -14px',
                borderRadius: '50%',
                border: '3px solid #d1005d',
                background: 'rgba(209, 0, 93, 0.18)',
                pointerEvents: 'none',
                zIndex: '2147483647',
                transition: 'left 0.4s ease, top 0.4s ease',
              });
              document.body.append(dot);
            }
            dot.style.left = `${x}px`;
            dot.style.top = `${y}px`;
          },
          { x: box.x + box.width / 2, y: box.y + box.height / 2 },
        );
        await pause(600);
      };
      const press = async (locator: ReturnType<typeof page.locator>) => {
        await point(locator);
        await locator.click();
      };
      const type = async (locator: ReturnType<typeof page.locator>, text: string) => {
        await point(locator);
        await locator.click();
        await locator.pressSequentially(text, { delay: 70 });
      };

      await page.goto(site(brand, '/login'));
      await expect(page.getByRole('button', { name: kernel.login.submit, exact: true })).toBeVisible();
      await video.start(SIZE);
      await pause(300);
      caption(0);
      await pause(1500);
      await press(page.getByRole('button', { name: kernel.login.forgotPassword }));
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await pause();
      caption(1);
      await type(dialog.getByRole('textbox').first(), userName);
      await pause(500);
      await press(dialog.getByRole('button', { name: account.forgot.submit }));
      await expect(dialog.getByText(String(account.forgot.sent).split('.')[0] ?? '')).toBeVisible();
      await pause(2500);

      caption(2);
      // The e-mail as the sandbox's inbox shows it, and its link followed.
      const mail = await latestMailTo(SANDBOX_URL, `${userName}@demo.example.com`, { timeoutMs: 15_000 });
      await page.goto(`${SANDBOX_URL}/mail/${mail.id}`);
      await pause(1500);
      // The brand's HTML mail, as a mail reader shows it: its button opens the link in the tab.
      await press(page.frameLocator('iframe[title="The message"]').getByRole('link', { name: resetAction }));
      await expect(page.getByRole('heading', { name: account.reset.title })).toBeVisible();
      await pause(1500);

      caption(3);
      const passwords = page.locator('input[type="password"]');
      await type(passwords.nth(0), NEW_PASSWORD);
      await pause(800);
      await type(passwords.nth(1), NEW_PASSWORD);
      await pause(800);
      await press(page.getByRole('button', { name: account.reset.submit }));
      await expect(page.getByText(account.reset.success)).toBeVisible();
      await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });
      await pause(800);
      await type(page.getByLabel(kernel.login.userName), userName);
      await type(page.getByLabel(kernel.login.password, { exact: true }), NEW_PASSWORD);
      await press(page.getByRole('button', { name: kernel.login.submit, exact: true }));
      await expect(page).not.toHaveURL(/\/login/);
      await pause(2000);

      const name = `reset-password.${brand}.${language}`;
      const length = await video.save(join(out, `${name}.webm`));
      await import('node:fs/promises').then((fs) => fs.writeFile(join(out, `${name}.vtt`), webVtt(cues, length)));
      await context.close();
    });
  }
}
