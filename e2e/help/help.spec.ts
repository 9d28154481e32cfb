import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { axeAndReflow, expectAccessible } from '../axe';
import { signIn, site } from '../support';
import { expect, test } from '../test';

test('help topics follow the member role: a finance member sees Bills, not the prepaid card', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/login');
  await page.goto(site('finance', '/help'));
  const topics = page.getByTestId('help-topics');
  await expect(topics.getByRole('button', { name: 'Bills' })).toBeVisible();
  await expect(topics.getByRole('button', { name: 'Your prepaid card' })).toHaveCount(0);
  await expect(page.getByText('support@finance.example.com')).toBeVisible();
  await expectAccessible(page);
});

test('the route-title header offers help guides in a dialog, usable by keyboard', async ({ page }) => {
  await signIn(page, 'card', 'card.careguard');
  await page.getByRole('button', { name: 'Help guides' }).focus();
  await page.keyboard.press('Enter');
  // The item the keyboard is on stands out from the menu (WCAG 1.4.11: at least 3:1), not a near-white shade of it.
  const focusedItem = page.locator('[role="menuitem"][data-focused]');
  await expect(focusedItem).toHaveCount(1);
  const contrast = await focusedItem.evaluate((item) => {
    const rgb = (el: Element) => (getComputedStyle(el).backgroundColor.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
      const lin = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const menu = item.closest('[role="menu"]')?.parentElement ?? document.body;
    const [a, b] = [luminance(rgb(item)), luminance(rgb(menu))].sort((x, y) => y - x) as [number, number];
    return (a + 0.05) / (b + 0.05);
  });
  expect(contrast).toBeGreaterThanOrEqual(3);
  await page.getByRole('menuitem', { name: 'Using your prepaid card' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Using your prepaid card' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('the assist brand shows its own copy override on the help page', async ({ page }) => {
  await signIn(page, 'assist', 'assist.careassist', undefined, '/help');
  await expect(page.getByText('CareAssist members can reach our care team every day from 8 am to 8 pm Eastern.')).toBeVisible();
  // The override keeps the default's invitation, and the contact topic says the same hours.
  await expect(page.getByText('Choose a topic to read more.')).toBeVisible();
  const topics = page.getByTestId('help-topics');
  await topics.getByRole('button', { name: 'Contacting us' }).click();
  await expect(topics.getByText('every day from 8 am to 8 pm Eastern')).toBeVisible();
  await expect(topics).not.toContainText('business days');
  // The assistance program points to a real channel: My Messages or a call, not a report the page does not offer.
  await topics.getByRole('button', { name: 'The assistance program' }).click();
  await expect(topics.getByText('send us a message from My Messages')).toBeVisible();
  await expect(topics).not.toContainText('Report a transaction');
});

test("the reset-password guide plays the brand's own video with captions in the user's language", async ({ page }) => {
  await signIn(page, 'card', 'card.careguard');
  await page.getByRole('button', { name: 'Help guides' }).click();
  await page.getByRole('menuitem', { name: 'How to reset your password' }).click();
  const dialog = page.getByRole('dialog');
  const video = dialog.getByTestId('help-video');
  await expect(video).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveCount(4);
  // The recording of this brand's site, served as a WebM, and its English captions, shown by default.
  const src = await video.locator('source').getAttribute('src');
  expect(src).toMatch(/^\/assets\/reset-password\.card\.en-[\w-]+\.webm$/);
  // Fetched by the page (Node cannot resolve <brand>.localhost): a WebM file, its EBML signature first.
  const served = await page.evaluate(async (url) => {
    const res = await fetch(url);
    return { type: res.headers.get('content-type'), head: [...new Uint8Array(await res.arrayBuffer()).subarray(0, 4)] };
  }, src ?? '');
  expect(served).toEqual({ type: 'video/webm', head: [0x1a, 0x45, 0xdf, 0xa3] });
  // The video loads and plays: its length is known, and time runs once it plays.
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(10);
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0.5);
  const cues = await video.evaluate((v: HTMLVideoElement) => {
    const track = v.textTracks[0];
    return { language: track?.language, mode: track?.mode, first: track?.cues?.[0] && (track.cues[0] as VTTCue).text };
  });
  expect(cues).toEqual({ language: 'en', mode: 'showing', first: 'Sign out, then choose "Forgot password?" on the sign-in page.' });
  const results = await axeAndReflow(page, '[role="dialog"]', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // In Spanish: the Spanish recording and captions.
  await page.keyboard.press('Escape');
  // The language choice as the shell's language menu keeps it, then the page again.
  await page.evaluate(() => localStorage.setItem('cq.lang', 'es'));
  await page.context().addCookies([{ name: 'cq.lang', value: 'es', url: site('card') }]);
  await page.reload();
  await page.getByRole('button', { name: 'Guías de ayuda' }).click();
  await page.getByRole('menuitem', { name: 'Cómo restablecer su contraseña' }).click();
  const es = page.getByRole('dialog').getByTestId('help-video');
  expect(await es.locator('source').getAttribute('src')).toMatch(/reset-password\.card\.es-[\w-]+\.webm$/);
  expect(await es.locator('track').getAttribute('srclang')).toBe('es');
});

test("each site's build holds its own brand's recordings and captions, none of another brand's", () => {
  // The built sites the journeys run against (pnpm build): a site ships only the videos its pages can play.
  const dist = join(import.meta.dirname, '..', '..', 'apps', 'web', 'dist');
  const recordings = (brand: string) =>
    readdirSync(join(dist, brand, 'assets'))
      .map((f) => /^reset-password\.(\w+)\.(en|es)-[\w-]+\.(webm|vtt)$/.exec(f))
      .filter((m) => m !== null)
      .map((m) => `${m[1]}.${m[2]}.${m[3]}`)
      .sort();
  for (const brand of ['finance', 'assist', 'card', 'staff'])
    expect(recordings(brand), brand).toEqual([`${brand}.en.vtt`, `${brand}.en.webm`, `${brand}.es.vtt`, `${brand}.es.webm`]);
  // The quote site has no help plugin: no recordings at all.
  expect(recordings('quote')).toEqual([]);
});
