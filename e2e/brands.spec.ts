import { E2E_PORT } from './playwright.config';
import { DEMO_PASSWORD, site } from './support';
import { expect, test } from './test';

/** Each brand's own name and accent colour, from its manifest and theme. */
const BRANDS = [
  { id: 'finance', name: 'CareGuard Finance', accent: 'rgb(31, 95, 174)' },
  { id: 'assist', name: 'CareAssist', accent: 'rgb(30, 123, 69)' },
  { id: 'quote', name: 'CareQuote', accent: 'rgb(180, 82, 26)' },
  { id: 'card', name: 'Amethyst Card', accent: 'rgb(91, 42, 134)' },
  { id: 'staff', name: 'Portal Staff', accent: 'rgb(47, 59, 82)' },
];

for (const brand of BRANDS) {
  test(`the ${brand.id} site shows its own name and colours`, async ({ page }) => {
    await page.goto(site(brand.id, '/login'));
    await expect(page).toHaveTitle(brand.name);
    const header = page.getByText(brand.name, { exact: true }).first();
    await expect(header).toBeVisible();
    const background = await header.evaluate((el) => getComputedStyle(el.parentElement as Element).backgroundColor);
    expect(background).toBe(brand.accent);
  });
}

test('plain localhost lists every brand site and the demo logins', async ({ page }) => {
  await page.goto(`http://localhost:${E2E_PORT}/`);
  for (const brand of BRANDS) await expect(page.getByRole('link', { name: brand.name })).toHaveAttribute('href', site(brand.id));
  await expect(page.getByRole('cell', { name: 'card.careguard', exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: DEMO_PASSWORD }).first()).toBeVisible();
});

test('an unknown host gets the brand index, not an error', async ({ request }) => {
  const res = await request.get(`http://127.0.0.1:${E2E_PORT}/some/page`);
  expect(res.status()).toBe(200);
  expect(await res.text()).toContain('Portal sites');
});
