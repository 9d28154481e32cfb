import { axeAndReflow, expectReflow, REFLOW_WIDTH } from '../axe';
import { signIn, site } from '../support';
import { expect, test } from '../test';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('on a phone the navigation folds behind the Menu button, opens a page and folds again', async ({ page }) => {
  await signIn(page, 'card', 'card.careguard');
  const menu = page.getByRole('button', { name: 'Menu' });
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();
  // The page's own heading is on the first screen, not pushed below twenty links.
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toBeInViewport();

  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(nav).toBeVisible();
  const results = await axeAndReflow(page);
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  await nav.getByRole('link', { name: 'Help', exact: true }).click();
  await expect(page).toHaveURL(/\/help$/);
  await expect(page.getByRole('heading', { name: 'Help', level: 1 })).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();
  // Nothing on the page is wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test('at 320 CSS px every page of the staff navigation (every plugin) fits the screen: WCAG 1.4.10 Reflow', async ({ page }) => {
  // The journeys check the pages they run axe on; this walks every page the navigation offers, so a page no journey
  // checks is held to it too. The SuperUser's staff navigation holds a page of nearly every plugin.
  await page.setViewportSize({ width: REFLOW_WIDTH, height: 800 });
  await signIn(page, 'staff', 'staff.superuser');
  const menu = page.getByRole('button', { name: 'Menu' });
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await menu.click();
  const links = await nav.getByRole('link').evaluateAll((as) => as.map((a) => ({ name: a.textContent?.trim() ?? '', href: a.getAttribute('href') ?? '' })));
  expect(links.length).toBeGreaterThan(15);
  for (const link of links) {
    const from = new URL(page.url()).pathname;
    if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
    await nav.getByRole('link', { name: link.name, exact: true }).click();
    await expect(page).toHaveURL(site('staff', link.href));
    // The address changes at once, while the page before stays on screen until the new page's code is in; the
    // navigation folds when the new page replaces it. Until then the checks below would look at the page before, and
    // the fold could hide the next link just as it is clicked.
    if (from !== link.href) await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0);
    await expectReflow(page);
  }
});

test('on a wide screen the navigation shows at once and there is no Menu button', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, 'card', 'card.careguard');
  await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Help', exact: true })).toBeVisible();
  // The navigation has its own row under the brand and the tools, as wide as the toolbar, so its twenty links take
  // two rows rather than a narrow column between the brand and the search box.
  const [bar, links, signOut] = [
    await page.getByTestId('toolbar').boundingBox(),
    await nav.boundingBox(),
    await page.getByRole('button', { name: 'Sign out' }).boundingBox(),
  ];
  expect(bar && links && links.width > bar.width * 0.9).toBe(true);
  expect(links && signOut && links.y >= signOut.y + signOut.height).toBe(true);
  expect(links && links.height < 100).toBe(true);
  // Drawn below the tools, and after them in the document: Tab reaches search, language and Sign out first.
  const navAfterTools = await page.evaluate(() => {
    const signOutButton = [...document.querySelectorAll('header button')].find((b) => b.textContent === 'Sign out');
    const navigation = document.getElementById('main-navigation');
    return !!signOutButton && !!navigation && (signOutButton.compareDocumentPosition(navigation) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  });
  expect(navAfterTools).toBe(true);
});

test("on a phone a profile's labels sit above their values, every value inside the screen", async ({ page }) => {
  await signIn(page, 'card', 'card.careguard', undefined, '/member');
  const details = page.getByTestId('member-details');
  await expect(details).toBeVisible();
  const email = details.getByText('card.careguard@demo.example.com');
  await expect(email).toBeVisible();
  const width = page.viewportSize()?.width ?? 0;
  for (const value of await details.locator('dd').all()) {
    const box = await value.boundingBox();
    expect(box && box.x + box.width <= width).toBe(true);
  }
  // The label is above its value, not beside it.
  const label = details.getByText('E-mail', { exact: true });
  const [l, v] = [await label.boundingBox(), await email.boundingBox()];
  expect(l && v && v.y > l.y + l.height - 1).toBe(true);
});

test('on a phone a table wider than the screen shades the edge past which its columns go on, and the shade follows the scroll', async ({ page }) => {
  await signIn(page, 'staff', 'staff.caresupport');
  // The kit's grid (the user list) and a plugin's own table in the kit's frame (the ledger, acting for a member).
  await page.goto(site('staff', '/users'));
  const grid = page.getByRole('grid', { name: 'Users', exact: true });
  await expect(grid.getByRole('row').nth(1)).toBeVisible();
  const frame = grid.locator('xpath=../..');
  await expect(frame).toHaveAttribute('data-more-after', 'true');
  await expect(frame).not.toHaveAttribute('data-more-before', /.*/);
  // The shade is drawn (not only marked): the edge's pseudo-element is opaque, once its fade-in has run, and takes no
  // clicks.
  const shade = () =>
    frame.evaluate((el) => {
      const s = getComputedStyle(el, '::after');
      return { opacity: s.opacity, pointerEvents: s.pointerEvents, image: s.backgroundImage };
    });
  await expect.poll(shade).toMatchObject({ opacity: '1', pointerEvents: 'none' });
  expect((await shade()).image).toContain('linear-gradient');
  // Scrolled to its end: the start is shaded, the end no longer.
  await grid.locator('xpath=..').evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect(frame).toHaveAttribute('data-more-before', 'true');
  await expect(frame).not.toHaveAttribute('data-more-after', /.*/);
  // Nothing on the page is wider than the phone: the table scrolls inside its frame.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});

test("on a phone the member's ledger scrolls sideways in a named frame a keyboard can scroll, its hidden columns' edge shaded", async ({ page }) => {
  await signIn(page, 'card', 'card.careguard');
  await page.goto(site('card', '/transactions'));
  await expect(page.getByTestId('ledger-row').first()).toBeVisible();
  const region = page.getByTestId('ledger-table').locator('xpath=..');
  await expect(region).toHaveAttribute('role', 'region');
  await expect(region).toHaveAttribute('tabindex', '0');
  await expect(region.locator('xpath=..')).toHaveAttribute('data-more-after', 'true');
  // The keyboard scrolls it: the end's shade goes once the last column is in view.
  await region.focus();
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowRight');
  await expect(region.locator('xpath=..')).toHaveAttribute('data-more-before', 'true');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});
