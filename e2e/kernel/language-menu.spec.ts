import { site } from '../support';
import { expect, test } from '../test';

test('the language menu is used from the keyboard: a choice or Escape leaves focus on the menu, not at the page start', async ({ page }) => {
  await page.goto(site('quote', '/login'));
  await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
  // The stand-in button opens the real menu (loaded on demand) already open, on the language in use.
  await page.getByRole('button', { name: /Language/ }).focus();
  await page.keyboard.press('ArrowDown');
  const list = page.getByRole('listbox');
  await expect(list.getByRole('option', { name: 'Español' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Language/ })).toBeFocused();

  // Open again and choose Spanish: the page is in Spanish, and focus is still on the menu.
  await page.keyboard.press('ArrowDown');
  await expect(list.getByRole('option', { name: 'English' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(list.getByRole('option', { name: 'Español' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Idioma/ })).toBeFocused();
});
