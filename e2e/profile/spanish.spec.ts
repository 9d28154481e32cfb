import type { Browser, Page } from '@playwright/test';
import { axeAndReflow } from '../axe';
import { SANDBOX_URL } from '../playwright.config';
import { DEMO_PASSWORD, PROFILE_MEMBER, site } from '../support';
import { expect, test } from '../test';

// The server's own words (sign-in errors, toasts, refusals) in the language the member reads. Edits PROFILE_MEMBER's
// profile, as the other profile journeys do: one at a time.
test.describe.configure({ mode: 'serial' });

// The page's own content (react-aria's live announcer outside it holds a transient image while a button is pending).
const axe = async (page: Page) => {
  const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  return results.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
};

/** A browser whose first language is Spanish (it sends Accept-Language: es-US; the app starts in Spanish). */
const spanishPage = async (browser: Browser) => (await browser.newContext({ locale: 'es-US' })).newPage();

async function signInSpanish(page: Page, password = DEMO_PASSWORD) {
  await page.goto(site('card', '/login'));
  await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Nombre de usuario').fill(PROFILE_MEMBER);
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
  // Beside the form and in the notification region.
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('El nombre de usuario o la contraseña son incorrectos.');
  await expect(page.getByRole('region', { name: 'Notificaciones' })).toContainText('El nombre de usuario o la contraseña son incorrectos.');
  await expect(page.getByText('The user name or password is incorrect.')).toHaveCount(0);
  expect(await axe(page)).toEqual([]);
  await page.context().close();
});

test('a member who reads Spanish gets the text message with the code in Spanish', async ({ browser }) => {
  const page = await spanishPage(browser);
  await openProfile(page);
  // A mobile in the sandbox carrier's mobile range (line numbers 1000-8999).
  const digits = `646555${1000 + Math.floor(Math.random() * 8000)}`;
  await page.getByRole('button', { name: 'Editar', exact: true }).click();
  await page.getByRole('textbox', { name: /^Teléfono celular/ }).fill(digits);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('button', { name: 'Editar', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Enviar código' }).click();

  // The message the server wrote, as the sandbox carrier received it.
  const inbox = await page.context().newPage();
  let text = '';
  await expect
    .poll(
      async () => {
        await inbox.goto(`${SANDBOX_URL}/sms?to=${encodeURIComponent(`+1${digits}`)}`);
        text =
          (await inbox
            .locator('td.sms-text')
            .first()
            .textContent({ timeout: 1000 })
            .catch(() => null)) ?? '';
        return text;
      },
      { timeout: 20_000 },
    )
    .toMatch(/: su código de verificación es \d{6}\. Vence en \d+ minutos\.$/);
  expect(await axe(page)).toEqual([]);
  await page.context().close();
});
