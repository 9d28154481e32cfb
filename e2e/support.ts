import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../scripts/lib/demo';
import { E2E_PORT } from './playwright.config';

export { DEMO_PASSWORD };
export const site = (brand: string, path = '/') => `http://${brand}.localhost:${E2E_PORT}${path}`;

/** Signs in through the login screen and waits to leave it. */
export async function signIn(page: Page, brand: string, userName: string, password = DEMO_PASSWORD, path = '/login') {
  await page.goto(site(brand, path));
  await page.getByLabel('User name').fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}
