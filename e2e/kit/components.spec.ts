import type { Locator, Page } from '@playwright/test';
import { axeAndReflow } from '../axe';
import { signIn } from '../support';
import { expect, test } from '../test';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const seriousOrWorse = (violations: { impact?: string | null; id: string; nodes: { target: unknown }[] }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);

const holdsFocus = (scope: Locator) => scope.evaluate((element) => element.contains(document.activeElement));

/**
 * Starts watching the page for a button matching the selector with the text, and returns a check of whether
 * one ever appeared. Pending states last under a second: on a busy machine polling can miss them.
 */
async function watchFor(page: Page, selector: string, text: string): Promise<() => Promise<boolean>> {
  const key = `seen:${selector}:${text}`;
  await page.evaluate(
    ({ key, selector, text }) => {
      const seen = window as unknown as Record<string, boolean>;
      seen[key] = false;
      new MutationObserver(() => {
        for (const element of document.querySelectorAll(selector)) if (element.textContent?.includes(text)) seen[key] = true;
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    },
    { key, selector, text },
  );
  return () => page.evaluate((k) => (window as unknown as Record<string, boolean>)[k] === true, key);
}

const PENDING = 'button[data-pending][aria-disabled="true"]';

async function openComponents(page: Page) {
  await signIn(page, 'staff', 'staff.superuser', undefined, '/kit-gallery?tab=components');
  await expect(page.getByRole('tab', { name: 'Components' })).toHaveAttribute('aria-selected', 'true');
}

test.describe('kit gallery: components', () => {
  test.beforeEach(async ({ page }) => {
    await openComponents(page);
  });

  test('the dialog opens from the keyboard, keeps focus inside, closes with Escape and gives focus back', async ({ page }) => {
    const trigger = page.getByRole('button', { name: 'Open dialog' });
    await trigger.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Example dialog' });
    await expect(dialog).toBeVisible();
    await expect.poll(() => holdsFocus(dialog)).toBe(true);
    // Focus cycles between the × and Done and never reaches the page behind.
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await holdsFocus(dialog)).toBe(true);
    }
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeVisible();
    // The page behind is hidden from assistive technology, but not the notifications: a toast raised while the dialog is
    // open is still announced.
    const hidden = (selector: string) => page.locator(selector).evaluate((el) => el.closest('[inert], [aria-hidden="true"]') !== null);
    await expect.poll(() => hidden('#main')).toBe(true);
    expect(await hidden('section[data-react-aria-top-layer]')).toBe(false);
    const results = await axeAndReflow(page, '[role="dialog"]', WCAG);
    expect(seriousOrWorse(results.violations)).toEqual([]);

    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(trigger).toBeFocused();
  });

  test('the confirm dialog starts on Cancel, shows its pending state, then closes', async ({ page }) => {
    const trigger = page.getByRole('button', { name: 'Delete draft' });
    const dialog = page.getByRole('alertdialog', { name: 'Delete the draft?' });

    // Escape answers "no": nothing is deleted.
    await trigger.click();
    await expect(dialog).toHaveAccessibleDescription('The draft will be removed. This cannot be undone.');
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('The draft was deleted.')).toHaveCount(0);

    await trigger.click();
    const sawPending = await watchFor(page, `[role="alertdialog"] ${PENDING}`, 'Deleting…');
    const sawCancelDisabled = await watchFor(page, '[role="alertdialog"] button[disabled]', 'Cancel');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(dialog).toHaveCount(0);
    expect(await sawPending()).toBe(true);
    expect(await sawCancelDisabled()).toBe(true);
    await expect(page.getByRole('status').filter({ hasText: 'The draft was deleted.' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Restore draft' })).toBeVisible();
  });

  test('tabs switch with the arrow keys, Home and End', async ({ page }) => {
    const tabList = page.getByRole('tablist', { name: 'Example tabs' });
    const tab = (name: string) => tabList.getByRole('tab', { name });
    await tab('Overview').click();
    await page.keyboard.press('ArrowRight');
    await expect(tab('Details')).toHaveAttribute('aria-selected', 'true');
    await expect(tab('Details')).toBeFocused();
    await expect(page.getByRole('tabpanel', { name: 'Details' })).toHaveText('Each bill with its amount and due date.');
    await page.keyboard.press('End');
    await expect(tab('History')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowLeft');
    await expect(tab('Details')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Home');
    await expect(tab('Overview')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'Overview' })).toHaveText('A summary of the account.');

    // Controlled from outside: the panel's own action selects the first tab again.
    await tab('History').click();
    await page.getByRole('button', { name: 'First tab' }).click();
    await expect(tab('Overview')).toHaveAttribute('aria-selected', 'true');
  });

  test('the toolbar moves between its buttons with the arrow keys; a pending button shows its pending label', async ({ page }) => {
    const toolbar = page.getByRole('toolbar', { name: 'Button examples' });
    await toolbar.getByRole('button', { name: 'Primary' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(toolbar.getByRole('button', { name: 'Secondary' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Pressed: Secondary' })).toBeVisible();

    const sawPending = await watchFor(page, `[role="toolbar"] ${PENDING}`, 'Saving…');
    await toolbar.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Pressed: Save finished' })).toBeVisible();
    expect(await sawPending()).toBe(true);
  });

  test('messages use alert for errors and status otherwise; the section has no serious or critical axe violations', async ({ page }) => {
    await expect(page.getByRole('alert').filter({ hasText: 'The payment could not be sent.' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Your card expires next month.' })).toBeVisible();
    const results = await axeAndReflow(page, 'main', WCAG);
    expect(seriousOrWorse(results.violations)).toEqual([]);
  });

  test('the filter select is labelled, moves with the arrow keys and hands back a number', async ({ page }) => {
    const select = page.getByRole('combobox', { name: 'Rows per page' });
    await expect(select).toHaveValue('20');
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await expect(select).toHaveValue('50');
    // 50 + 10 = 60: the page got the number 50, not the text '50' (which would make '5010').
    await expect(page.getByRole('status').filter({ hasText: 'rows a page' })).toHaveText('50 rows a page (a number: plus 10 makes 60).');
    await select.selectOption('10');
    await expect(page.getByRole('status').filter({ hasText: 'rows a page' })).toHaveText('10 rows a page (a number: plus 10 makes 20).');
  });
});
