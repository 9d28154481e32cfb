import type { Page } from '@playwright/test';
import { expect, test } from '../test';
import { field, openGallery } from './gallery';

const alert = (page: Page, text: string) => page.getByText(text, { exact: true });

async function fillValid(page: Page, { appointment = true } = {}) {
  await field(page, 'Full name').fill('Pat Doe');
  await field(page, 'E-mail').fill('pat@example.com');
  await field(page, 'Password').fill('Secret12');
  await field(page, 'Confirm password').fill('Secret12');
  await field(page, 'Phone').fill('5551234567');
  await field(page, 'Social Security number').fill('123456789');
  await field(page, 'Date of birth').fill('01021980');
  await field(page, 'Service date').fill('03042024');
  if (appointment) {
    await page
      .getByRole('group', { name: /Appointment date/ })
      .getByRole('spinbutton')
      .first()
      .click();
    await page.keyboard.type('05062026');
  }
  await field(page, 'Amount').fill('12,5');
  await field(page, 'Units').fill('250');
  await page.getByRole('button', { name: /Transaction type/ }).click();
  await page.getByRole('option').first().click();
  await page.getByRole('button', { name: /\bState\b/ }).click();
  await page.getByRole('option', { name: 'Texas' }).click();
  await page.getByText('By phone').click();
  await page.locator('input[type="file"]').setInputFiles([{ name: 'bill.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') }]);
  await page.getByText('I confirm the details are correct').click();
}

test.describe('kit gallery: form', () => {
  test.beforeEach(async ({ page }) => {
    await openGallery(page, 'form');
  });

  test('a refused submit whose only error is the date picker puts focus in the date, where it can be typed', async ({ page }) => {
    await fillValid(page, { appointment: false });
    await page.getByRole('button', { name: 'Submit' }).click();
    const date = page.getByRole('group', { name: /Appointment date/ });
    await expect(date.getByRole('spinbutton').first()).toBeFocused();
    await page.keyboard.type('05062026');
    await expect(date.getByRole('spinbutton')).toHaveText(['5', '6', '2026']);
  });

  test('shows the toast and field errors on an invalid submit, then submits once fixed', async ({ page }) => {
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Please fix any errors before continuing.')).toBeVisible();
    await expect(alert(page, 'This field is required.').first()).toBeVisible();
    await expect(alert(page, 'Enter a valid e-mail address.')).toBeVisible();
    await expect(alert(page, 'Please confirm the details.')).toBeVisible();
    await expect(field(page, 'Full name')).toHaveAttribute('aria-invalid', 'true');

    await fillValid(page);
    // Rules that compare: the confirmation, the date of birth, the masked date's bounds, the password checklist.
    await field(page, 'Confirm password').fill('Secret13');
    await field(page, 'Date of birth').fill('01011899');
    await field(page, 'Service date').fill('06012019');
    await field(page, 'Password').fill('short');
    await expect(alert(page, 'The values do not match.')).toBeVisible();
    await expect(alert(page, 'Date of birth must be after 1900 and not in the future.')).toBeVisible();
    await expect(alert(page, 'The date is too early.')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Password requirements' }).getByRole('listitem')).toHaveText([
      /Not met:.*At least 8 characters/,
      /Met:.*At least one letter/,
      /Not met:.*At least one digit/,
      /Met:.*Only letters, digits/,
    ]);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Please fix any errors before continuing.')).toBeVisible();
    await expect(page.getByTestId('form-result')).toHaveCount(0);

    await field(page, 'Password').fill('Secret12');
    await field(page, 'Confirm password').fill('Secret12');
    await field(page, 'Date of birth').fill('01021980');
    await field(page, 'Service date').fill('03042024');
    await expect(alert(page, 'The values do not match.')).toHaveCount(0);
    // Masks and caps: phone shown formatted, SSN masked once blurred, money to 2 decimals, units capped at 100.
    await expect(field(page, 'Phone')).toHaveValue('(555) 123-4567');
    await expect(field(page, 'Social Security number')).toHaveValue('XXX-XX-6789');
    await expect(field(page, 'Amount')).toHaveValue('12.50');
    await expect(field(page, 'Units')).toHaveValue('100');
    // A grouped amount, as the site shows amounts, is kept whole: 1,234.56 and 1.234,56 are both 1234.56, never 1.23.
    for (const typed of ['1,234.56', '1.234,56']) {
      await field(page, 'Amount').fill(typed);
      await field(page, 'Units').focus();
      await expect(field(page, 'Amount')).toHaveValue('1234.56');
    }
    await field(page, 'Amount').fill('12,5');
    await field(page, 'Units').focus();
    await expect(page.getByRole('list', { name: 'Chosen files' })).toContainText('bill.pdf');

    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Thank you, Pat Doe: the form was received.')).toBeVisible();
    await expect(page.getByTestId('form-result')).toHaveText('Last submission: Pat Doe, 16 fields, 1 files.');
  });

  test('can be filled and submitted from the keyboard alone', async ({ page }) => {
    const tabTo = async (name: string | RegExp) => {
      for (let i = 0; i < 8; i++) {
        const label = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el) return '';
          const ids = el.getAttribute('aria-labelledby')?.split(' ') ?? [];
          const byIds = ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
          return byIds || (el as HTMLInputElement).labels?.[0]?.textContent || el.getAttribute('aria-label') || el.textContent || '';
        });
        if (typeof name === 'string' ? label.trim().startsWith(name) : name.test(label)) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`could not Tab to ${name}`);
    };
    await page.getByRole('tab', { name: 'Form fields' }).focus();
    await page.keyboard.press('Tab');
    await tabTo('Full name');
    await page.keyboard.type('Kay Board');
    await tabTo('E-mail');
    await page.keyboard.type('kay@example.com');
    await tabTo(/^Password\(required\)|^Password \(required\)|^Password$/);
    await page.keyboard.type('Keys2024!');
    await tabTo('Confirm password');
    await page.keyboard.type('Keys2024!');
    await tabTo('Phone');
    await page.keyboard.type('5559876543');
    await tabTo('Social Security number');
    await page.keyboard.type('987654321');
    await tabTo('Date of birth');
    await page.keyboard.type('07041990');
    await tabTo('Service date');
    await page.keyboard.type('02022022');
    await page.keyboard.press('Tab');
    await page.keyboard.type('12242027'); // the picker's month, day and year segments advance by themselves
    await tabTo('Amount');
    await page.keyboard.type('99.99');
    await tabTo('Units');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('7');
    await tabTo(/Transaction type/);
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('listbox')).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('listbox')).toHaveCount(0);
    // Closing the list gives focus back to its button (after the popover's exit); Tab goes on from there.
    await expect(page.getByRole('button', { name: /Transaction type/ })).toBeFocused();
    await tabTo(/\bState\b/);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.type('Ohio');
    await page.keyboard.press('Enter');
    // As with the transaction type: a Tab before the list's exit ends would start from the page's top.
    await expect(page.getByRole('listbox')).toHaveCount(0);
    await expect(page.getByRole('button', { name: /\bState\b/ })).toBeFocused();
    await tabTo('By e-mail');
    await page.keyboard.press('Space');
    await tabTo(/Choose files/);
    await tabTo('I confirm the details are correct');
    await page.keyboard.press('Space');
    await tabTo('Submit');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Thank you, Kay Board: the form was received.')).toBeVisible();
    await expect(page.getByTestId('form-result')).toContainText('Kay Board');
  });
});
