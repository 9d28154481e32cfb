import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { axeAndReflow } from '../axe';
import { pageApi, signIn, site } from '../support';
import { expect, test } from '../test';

const axe = (page: Page) => axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

test('a member writes with an attachment, CareSupport replies while impersonating, the member sees the reply and downloads the file', async ({ browser }) => {
  // Two users, two sign-ins and an impersonation: more than the default minute on a busy machine.
  test.setTimeout(180_000);
  // Words of this attempt alone: a run again after a failure finds the first attempt's message and reply too.
  const stamp = Date.now().toString(36);
  const words = `Pharmacy question ${stamp}`;
  const replyWords = `we have checked your receipt ${stamp}`;
  const member = await (await browser.newContext()).newPage();
  await signIn(member, 'finance', 'finance.careguardfinance');
  await member.goto(site('finance', '/notes'));
  await expect(member.getByRole('heading', { name: 'My Messages', level: 1 })).toBeVisible();
  expect((await axe(member)).violations).toEqual([]);

  // Write a message with an attachment.
  await member.getByRole('button', { name: 'New message' }).click();
  await expect(member).toHaveURL(/\/notes-new$/);
  await member.getByLabel('Message', { exact: true }).fill(`${words}: please check the attached receipt.`);
  const chooser = member.waitForEvent('filechooser');
  await member.getByRole('button', { name: /Choose files/i }).click();
  await (await chooser).setFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(member.getByText('receipt.pdf')).toBeVisible();
  expect((await axe(member)).violations).toEqual([]);
  await member.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(member).toHaveURL(/\/notes\/\d+$/);
  const noteId = Number(member.url().split('/').pop());
  await expect(member.getByTestId('note').filter({ hasText: words })).toBeVisible();
  const memberId = (await pageApi<{ MemberID: number }>(member, `/api/notes/getById/${noteId}`)).body.Data.MemberID;

  // CareSupport acts for the member and replies.
  const staff = await (await browser.newContext()).newPage();
  await signIn(staff, 'staff', 'staff.caresupport');
  await staff.getByLabel('Member ID or number to act for').fill(String(memberId));
  await staff.getByRole('button', { name: 'Act for member' }).click();
  await expect(staff.getByText(`Acting on behalf of member ${memberId}`)).toBeVisible();
  await staff.goto(site('staff', `/notes/${noteId}`));
  await expect(staff.getByTestId('note').filter({ hasText: words })).toBeVisible();
  const reply = staff.getByRole('form', { name: 'Reply' });
  await reply.getByLabel('Message', { exact: true }).fill(`Thank you, ${replyWords}.`);
  await reply.getByRole('button', { name: 'Send reply' }).click();
  await expect(staff.getByTestId('note').filter({ hasText: replyWords })).toContainText('Support team');
  // The reply form starts again empty with focus in its message box (its Send reply was drawn anew), and says it was sent.
  await expect(staff.getByRole('status').filter({ hasText: 'Your reply was sent.' })).toBeVisible();
  await expect(reply.getByLabel('Message', { exact: true })).toBeFocused();
  await expect(reply.getByLabel('Message', { exact: true })).toHaveValue('');

  // The member sees the unread reply marked in the navigation, opens it, and the mark goes.
  await member.goto(site('finance', '/help'));
  const nav = member.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByTestId('notes-unread')).toBeVisible();
  await nav.getByRole('link', { name: /My Messages/ }).click();
  // By keyboard, as the grid offers it: the link's cell focused (arrow keys move between cells), Enter follows the link.
  await member.getByRole('link', { name: replyWords }).locator('xpath=ancestor::*[@data-cell][1]').focus();
  await member.keyboard.press('Enter');
  const replyCard = member.getByTestId('note').filter({ hasText: replyWords });
  await expect(replyCard).toContainText('Support team');
  await expect(nav.getByTestId('notes-unread')).toHaveCount(0);
  expect((await axe(member)).violations).toEqual([]);

  // The attachment downloads under its name.
  const download = member.waitForEvent('download');
  await member.getByRole('button', { name: 'Download receipt.pdf' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('receipt.pdf');
  expect((await readFile(await file.path())).equals(PDF)).toBe(true);
});

test('a message without text is not sent, and cancel returns to the list', async ({ page }) => {
  await signIn(page, 'card', 'card.careguard', undefined, '/notes-new');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page).toHaveURL(/\/notes-new$/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/notes$/);
  // A message that fails to load (the query's one retry too) says so in place with Try again, and no toast says it
  // a second time; Try again then shows it.
  let failures = 2;
  await page.route('**/api/notes/getById/*', (route) => {
    if (failures === 0) return route.continue();
    failures -= 1;
    return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ Message: 'Server error' }) });
  });
  await page.getByRole('main').locator('a[href^="/notes/"]').first().click();
  const failed = page.getByRole('alert').filter({ hasText: 'could not be loaded' });
  await expect(failed).toBeVisible();
  await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('alert')).toHaveCount(0);
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('note').first()).toBeVisible();
});

test('a member edits a message with an attachment from the keyboard: Edit takes focus to the message, Save back to Edit, Cancel to the list', async ({
  page,
}) => {
  await signIn(page, 'card', 'card.careguard', undefined, '/notes-new');
  const words = `Dental question ${Date.now().toString(36)}`;
  await page.getByLabel('Message', { exact: true }).fill(`${words}: is a cleaning covered?`);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: /Choose files/i }).click();
  await (await chooser).setFiles({ name: 'estimate.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page).toHaveURL(/\/notes\/\d+$/);
  await expect(page.getByTestId('note').filter({ hasText: words })).toBeVisible();

  // Edit takes focus into the message box; a save that went through, back to Edit (the form and its Save are gone).
  await page.getByRole('button', { name: 'Edit', exact: true }).press('Enter');
  const edit = page.getByRole('form', { name: 'Edit message' });
  const text = edit.getByLabel('Message', { exact: true });
  await expect(text).toBeFocused();
  // The attachment's Remove box left alone: the save keeps the file (it was refused as invalid input before).
  await expect(edit.getByRole('checkbox', { name: 'estimate.pdf' })).not.toBeChecked();
  await text.fill(`${words}: is a cleaning covered twice a year?`);
  await edit.getByRole('button', { name: 'Save' }).press('Enter');
  await expect(page.getByTestId('note').filter({ hasText: 'twice a year?' })).toBeVisible();
  await expect(page.getByTestId('note').filter({ hasText: 'twice a year?' })).toContainText('estimate.pdf');
  await expect(page.getByRole('button', { name: 'Edit', exact: true })).toBeFocused();

  // Cancel leaves the edit for the list, whose heading takes focus as on any page change.
  await page.keyboard.press('Enter');
  await expect(text).toBeFocused();
  await edit.getByRole('button', { name: 'Cancel' }).press('Enter');
  await expect(page).toHaveURL(/\/notes$/);
  await expect(page.getByRole('heading', { name: 'My Messages', level: 1 })).toBeFocused();
});
