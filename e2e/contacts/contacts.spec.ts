import { axeAndReflow } from '../axe';
import { signIn } from '../support';
import { expect, test } from '../test';

const axe = (page: import('@playwright/test').Page) => axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);

test('a member adds a contact, edits it, and cancels an edit; save and cancel return to the list', async ({ page }) => {
  const last = `Tester${Date.now().toString(36)}`;
  await signIn(page, 'finance', 'finance.careguardfinance');
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Contacts' }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
  expect((await axe(page)).violations).toEqual([]);

  // A new contact opens directly in edit, named 'Add New Contact' while empty.
  await page.getByRole('button', { name: 'Add contact' }).click();
  await expect(page.getByTestId('contact-name')).toHaveText('Add New Contact');
  // The form replaced the list (and Add contact with it): focus is on its first field.
  await expect(page.getByLabel('First name')).toBeFocused();
  expect((await axe(page)).violations).toEqual([]);
  await page.getByLabel('First name').fill('Ana');
  await page.getByLabel('Last name').fill(last);
  await expect(page.getByTestId('contact-name')).toHaveText(`${last}, Ana`);
  await page.getByLabel('Phone', { exact: true }).fill('5125550101');
  await page.getByLabel('Email').fill('ana@example.com');
  await page.getByRole('button', { name: 'Save' }).click();

  // Back on the list: the name shows as 'Last, First'.
  const name = page.getByRole('button', { name: `${last}, Ana` });
  await expect(name).toBeVisible();
  // Focus is on the saved contact's name in the list.
  await expect(name).toBeFocused();

  // View, then edit, then save.
  await name.click();
  await expect(page.getByTestId('contact-name')).toHaveText(`${last}, Ana`);
  // The detail replaced the list: focus is on the contact's name, its heading.
  await expect(page.getByRole('heading', { name: `${last}, Ana` })).toBeFocused();
  await expect(page.getByText('(512) 555-0101')).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByLabel('First name')).toBeFocused();
  await page.getByLabel('First name').fill('Anabel');
  await page.getByLabel('City').fill('Austin');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: `${last}, Anabel` })).toBeVisible();
  // Back on the list, focus is on the contact that was open.
  await expect(page.getByRole('button', { name: `${last}, Anabel` })).toBeFocused();

  // Edit, then cancel: nothing changes and the list is back.
  await page.getByRole('button', { name: `${last}, Anabel` }).click();
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('First name').fill('Changed');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: `${last}, Anabel` })).toBeVisible();
  await expect(page.getByRole('button', { name: `${last}, Anabel` })).toBeFocused();
  await expect(page.getByRole('button', { name: `${last}, Changed` })).toHaveCount(0);
  await page.getByRole('button', { name: `${last}, Anabel` }).click();
  await expect(page.getByText('Austin')).toBeVisible();
});

test("two people edit one contact: the later save is refused with Reload, which takes the other's save into the form", async ({ browser }) => {
  const last = `Twice${Date.now().toString(36)}`;
  const a = await browser.newContext();
  const b = await browser.newContext();
  const pageA = await a.newPage();
  const pageB = await b.newPage();
  await signIn(pageA, 'finance', 'finance.careguardfinance');
  await pageA.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Contacts' }).click();
  await pageA.getByRole('button', { name: 'Add contact' }).click();
  await pageA.getByLabel('First name').fill('Ana');
  await pageA.getByLabel('Last name').fill(last);
  await pageA.getByRole('button', { name: 'Save' }).click();
  await expect(pageA.getByRole('button', { name: `${last}, Ana` })).toBeVisible();

  await signIn(pageB, 'finance', 'finance.careguardfinance');
  await pageB.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Contacts' }).click();
  for (const page of [pageA, pageB]) {
    await page.getByRole('button', { name: `${last}, Ana` }).click();
    await page.getByRole('button', { name: 'Edit' }).click();
  }
  await pageA.getByLabel('City').fill('Austin');
  await pageA.getByRole('button', { name: 'Save' }).click();
  await expect(pageA.getByRole('button', { name: `${last}, Ana` })).toBeVisible();

  await pageB.getByLabel('City').fill('Dallas');
  await pageB.getByRole('button', { name: 'Save' }).click();
  const reload = pageB.getByRole('button', { name: 'Reload' });
  await expect(reload).toBeVisible();
  await expect(pageB.getByTestId('stale-notice')).toContainText('This contact was changed by someone else. Reload it and make your change again.');
  // The refused save kept what B typed.
  await expect(pageB.getByLabel('City')).toHaveValue('Dallas');
  expect((await axe(pageB)).violations).toEqual([]);
  // Reload reads the contact as A saved it (a new Version) into the open form; a save from there goes through.
  await reload.click();
  await expect(reload).toHaveCount(0);
  await expect(pageB.getByLabel('City')).toHaveValue('Austin');
  await pageB.getByLabel('City').fill('Dallas');
  await pageB.getByRole('button', { name: 'Save' }).click();
  await pageB.getByRole('button', { name: `${last}, Ana` }).click();
  await expect(pageB.getByText('Dallas')).toBeVisible();
  await a.close();
  await b.close();
});
