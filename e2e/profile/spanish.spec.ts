import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { DEMO_PASSWORD, site } from '../support';
import { expect, test } from '../test';

// The server's own words (sign-in errors, toasts, refusals) in the language the member reads. Edits the card demo
// member's profile, as the other profile journeys do: one at a time.
test.describe.configure({ mode: 'serial' });

const axe = async (page: Page) => {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
};

/** A browser whose first language is Spanish (it sends Accept-Language: es-US; the app starts in Spanish). */
const spanishPage = async (browser: Browser) => (await browser.newContext({ locale: 'es-US' })).newPage();

async function signInSpanish(page: Page, password = DEMO_PASSWORD) {
  await page.goto(site('card', '/login'));
  await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Nombre de usuario').fill('card.careguard');
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

async function openProfile(page: Page) {
  await signInSpanish(page);
  await page.getByRole('navigation').getByRole('link', { name: 'Mi perfil' }).click();
  await expect(page.getByRole('heading', { name: 'Mi perfil', level: 1 })).toBeVisible();
}

test('a Spanish browser is told a wrong password in Spanish', async ({ browser }) => {
  const page = await spanishPage(browser);
  await signInSpanish(page, 'not-the-password');
  await expect(page.getByText('El nombre de usuario o la contraseña son incorrectos.')).toBeVisible();
  await expect(page.getByText('The user name or password is incorrect.')).toHaveCount(0);
  expect(await axe(page)).toEqual([]);
  await page.context().close();
});

test("a member who reads Spanish gets the server's toast and its refusal of a stale save in Spanish", async ({ browser }) => {
  const a = await spanishPage(browser);
  const b = await spanishPage(browser);
  await openProfile(a);
  await openProfile(b);
  await a.getByRole('button', { name: 'Editar', exact: true }).click();
  await b.getByRole('button', { name: 'Editar', exact: true }).click();

  await a.getByLabel('Nombre', { exact: true }).fill(`Ana${Math.random().toString(36).slice(2, 6)}`);
  await a.getByRole('button', { name: 'Guardar' }).click();
  await expect(a.getByText('Su perfil se guardó.')).toBeVisible();

  await b.getByLabel('Apellido', { exact: true }).fill('Ruiz');
  await b.getByRole('button', { name: 'Guardar' }).click();
  await expect(b.getByText('Otra persona cambió este perfil; vuelva a cargar para ver su cambio.')).toBeVisible();
  await expect(b.getByText('Someone else changed this profile', { exact: false })).toHaveCount(0);
  expect(await axe(b)).toEqual([]);
  await a.context().close();
  await b.context().close();
});
