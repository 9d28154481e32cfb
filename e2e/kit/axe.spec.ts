import { axeAndReflow, WCAG_TAGS } from '../axe';
import { expect, test } from '../test';

/** The journeys' accessibility check itself (e2e/axe.ts): it must see what axe sees, in frames and after a change. */
const violated = async (page: Parameters<typeof axeAndReflow>[0]) =>
  Object.fromEntries((await axeAndReflow(page, 'main', WCAG_TAGS)).violations.map((v) => [v.id, v.nodes.map((n) => n.target)]));

test('the accessibility check finds violations in the page and in its frames, and checks a changed screen again', async ({ page }) => {
  // A page of an origin of its own, served by the browser's router: its frame (srcdoc) shares that origin.
  const html = `<html lang="en"><title>Check</title><body><main>
    <img id="photo" src="data:,">
    <p id="faint" style="color:#8a8a8a;background:#999">Faint text</p>
    <iframe title="Inner" srcdoc="<html lang='en'><title>Inner</title><body><main><img id='inner' src='data:,'></main></body></html>"></iframe>
  </main></body></html>`;
  await page.route('http://axe-check.localhost/**', (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto('http://axe-check.localhost/');
  await expect(page.frameLocator('iframe').locator('#inner')).toBeAttached();
  const first = await violated(page);
  expect(first['image-alt']).toEqual([['#photo'], ['iframe', '#inner']]);
  expect(first['color-contrast']).toEqual([['#faint']]);

  // A later screen of the same document (axe is already in the page): checked as it is now.
  await page.evaluate(() => {
    document.querySelector('#photo')?.setAttribute('alt', 'A photo');
    document.querySelector('#faint')?.setAttribute('style', 'color:#000;background:#fff');
  });
  const second = await violated(page);
  expect(second['image-alt']).toEqual([['iframe', '#inner']]);
  expect(second['color-contrast']).toBeUndefined();
});

test("the accessibility check finds violations in a frame of another origin (as the gateway's card form is)", async ({ page }) => {
  const outer = `<html lang="en"><title>Outer</title><body><main><iframe title="Other" src="http://axe-other.localhost/"></iframe></main></body></html>`;
  const other = `<html lang="en"><title>Other</title><body><main><img id="elsewhere" src="data:,"></main></body></html>`;
  await page.route('http://axe-check.localhost/**', (route) => route.fulfill({ contentType: 'text/html', body: outer }));
  await page.route('http://axe-other.localhost/**', (route) => route.fulfill({ contentType: 'text/html', body: other }));
  await page.goto('http://axe-check.localhost/');
  await expect(page.frameLocator('iframe').locator('#elsewhere')).toBeAttached();
  expect((await violated(page))['image-alt']).toEqual([['iframe', '#elsewhere']]);
});

test('a frame of another origin busy when the check starts is still checked, however long it takes to take axe in', async ({ page }) => {
  const outer = `<html lang="en"><title>Outer</title><body><main><iframe title="Other" src="http://axe-other.localhost/"></iframe></main></body></html>`;
  const other = `<html lang="en"><title>Other</title><body><main><img id="elsewhere" src="data:,"></main></body></html>`;
  await page.route('http://axe-check.localhost/**', (route) => route.fulfill({ contentType: 'text/html', body: outer }));
  await page.route('http://axe-other.localhost/**', (route) => route.fulfill({ contentType: 'text/html', body: other }));
  await page.goto('http://axe-check.localhost/');
  await expect(page.frameLocator('iframe').locator('#elsewhere')).toBeAttached();
  // As a busy machine delays the frame's process: @axe-core/playwright alone gives a frame 1 s, then leaves it out.
  const frame = page.frames().find((f) => f.url().startsWith('http://axe-other.localhost'));
  await frame?.evaluate(() => {
    setTimeout(() => {
      const end = Date.now() + 2500;
      while (Date.now() < end);
    }, 0);
  });
  expect((await violated(page))['image-alt']).toEqual([['iframe', '#elsewhere']]);
});

test('the accessibility check finds violations on a page without an origin of its own (about:blank) and in its frames', async ({ page }) => {
  await page.setContent(`<html lang="en"><title>Blank</title><body><main><img id="here" src="data:,">
    <iframe title="Inner" srcdoc="<html lang='en'><title>Inner</title><body><main><img id='inner' src='data:,'></main></body></html>"></iframe>
  </main></body></html>`);
  await expect(page.frameLocator('iframe').locator('#inner')).toBeAttached();
  expect((await violated(page))['image-alt']).toEqual([['#here'], ['iframe', '#inner']]);
});
