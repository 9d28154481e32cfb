import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { axeAndReflow } from '../axe';
import { signIn } from '../support';
import { expect, test } from '../test';

const axe = (page: Page) => axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
const pdf = (size: number, note = '') => {
  const head = Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n% ${note}\n`);
  return Buffer.concat([head, Buffer.alloc(size - head.length, 0x20)]);
};
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function fillRequest(page: Page, date: string, amount: string) {
  await page.getByRole('group', { name: 'Service date' }).getByRole('spinbutton').first().click();
  await page.keyboard.type(date);
  await page.getByLabel('Amount').fill(amount);
}

async function choose(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: /Choose files/i }).click();
  await (await chooser).setFiles(files);
}

test('a finance member sends two receipts with a progress bar each and sees them listed', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/reimbursement');
  await expect(page.getByRole('heading', { name: 'Request a reimbursement' })).toBeVisible();
  expect((await axe(page)).violations).toEqual([]);
  const stamp = Date.now().toString(36);
  // An amount and bytes of this run: a request like an earlier run's would be asked about (see the next test).
  const amount = (10 + (Date.now() % 900_000) / 100).toFixed(2);
  await fillRequest(page, '10012026', amount);
  await choose(page, [
    { name: `pharmacy ${stamp}.pdf`, mimeType: 'application/pdf', buffer: pdf(9 * 1024 * 1024, stamp) },
    { name: `clinic ${stamp}.png`, mimeType: 'image/png', buffer: PNG },
  ]);
  const created = page.waitForResponse((r) => r.url().includes('/api/reimbursements/create') && r.ok());
  await page.getByRole('button', { name: 'Send request' }).click();
  const claimNumber = ((await (await created).json()) as { Data: { ClaimNumber: string } }).Data.ClaimNumber;
  const queue = page.getByTestId('upload-queue');
  await expect(queue.getByRole('progressbar', { name: `Upload of pharmacy ${stamp}.pdf` })).toBeVisible();
  await expect(queue.getByRole('progressbar', { name: `Upload of clinic ${stamp}.png` })).toBeVisible();
  await expect(page.getByText('Your reimbursement request has been submitted with its 2 files.')).toBeVisible({ timeout: 30_000 });
  // The form is drawn anew, empty, without the Send pressed: the outcome takes focus, so it is read and Tab goes on from it.
  await expect(page.getByRole('status').filter({ hasText: 'Your reimbursement request has been submitted with its 2 files.' })).toBeFocused();
  await expect(queue.getByRole('progressbar', { name: `Upload of pharmacy ${stamp}.pdf` })).toHaveAttribute('aria-valuenow', '100');
  // One row for the request, its two files in it, its bill Received; the files download from the row's details.
  const grid = page.getByRole('grid', { name: 'Your reimbursements' });
  const row = grid.getByRole('row').filter({ hasText: `pharmacy-${stamp}.pdf` });
  await expect(row).toHaveCount(1);
  await expect(row.getByText(`clinic-${stamp}.png`)).toBeVisible();
  await expect(row.getByText('Received')).toBeVisible();
  // The list pages 20 requests at a time, and its pager says so (the member lists' sizes, spec 01).
  const size = page.getByRole('combobox', { name: 'Rows per page' });
  await expect(size).toHaveValue('20');
  await expect(size.getByRole('option')).toHaveText(['5', '10', '20', '50', '100']);
  await row.getByRole('button', { name: /^Show details for row request of / }).click();
  const download = page.waitForEvent('download');
  await grid.getByRole('button', { name: `Download clinic-${stamp}.png` }).click();
  expect((await download).suggestedFilename()).toBe(`clinic-${stamp}.png`);

  // Whoever reviews the bill the request became finds its receipts on the bill's detail page, each downloadable.
  await page.getByRole('combobox', { name: 'Search' }).fill(claimNumber);
  await page
    .getByRole('listbox')
    .getByRole('option', { name: new RegExp(`^${claimNumber} `) })
    .click();
  await expect(page).toHaveURL(/\/claims\/\d+$/);
  const receipts = page.getByRole('region', { name: 'Receipts' });
  await expect(receipts.getByRole('button', { name: `Download pharmacy-${stamp}.pdf` })).toBeVisible();
  await expect(receipts.getByRole('row').filter({ hasText: `clinic-${stamp}.png` })).toContainText('PNG');
  expect((await axe(page)).violations).toEqual([]);
  const receipt = page.waitForEvent('download');
  await receipts.getByRole('button', { name: `Download clinic-${stamp}.png` }).click();
  const file = await receipt;
  expect(file.suggestedFilename()).toBe(`clinic-${stamp}.png`);
  expect(Buffer.compare(await readFile(await file.path()), PNG)).toBe(0);
});

test('a .exe and a future service date are refused with the messages, and nothing is sent', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/reimbursement');
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/reimbursements/uploads')) uploads.push(r.url());
  });
  await fillRequest(page, '10012026', '12.00');
  await choose(page, [{ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ not a receipt') }]);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Please use a valid file extension: pdf, gif, jpeg, jpg, png, doc, docx, xls, xlsx')).toBeVisible();

  await page.getByRole('button', { name: /Remove setup\.exe/ }).click();
  await choose(page, [{ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: pdf(2000) }]);
  const next = new Date(Date.now() + 3 * 86_400_000);
  await page.getByRole('group', { name: 'Service date' }).getByRole('spinbutton').first().click();
  await page.keyboard.type(`${String(next.getMonth() + 1).padStart(2, '0')}${String(next.getDate()).padStart(2, '0')}${next.getFullYear()}`);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText("Service date can't be in future.")).toBeVisible();
  expect(uploads).toEqual([]);
});

test('the same request sent again asks "Send anyway?" first, and sends it only when told to', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/reimbursement');
  const stamp = Date.now().toString(36);
  const amount = (10 + (Date.now() % 900_000) / 100).toFixed(2);
  const send = async () => {
    await fillRequest(page, '09142026', amount);
    await choose(page, [{ name: `twice ${stamp}.pdf`, mimeType: 'application/pdf', buffer: pdf(3000, stamp) }]);
    await page.getByRole('button', { name: 'Send request' }).click();
  };
  await send();
  await expect(page.getByText('Your reimbursement request has been submitted with its file.')).toBeVisible({ timeout: 30_000 });
  const rows = page
    .getByRole('grid', { name: 'Your reimbursements' })
    .getByRole('row')
    .filter({ hasText: `twice-${stamp}.pdf` });
  await expect(rows).toHaveCount(1);

  // Again, the same receipt: the dialog names the earlier request; Don't send leaves the list as it was.
  await send();
  const dialog = page.getByRole('alertdialog', { name: 'Send anyway?' });
  await expect(dialog).toContainText(/You already sent a reimbursement request for \$[\d,.]+ with service date Sep 14, 2026 on .+\. This one was not sent\./);
  expect((await axe(page)).violations).toEqual([]);
  await dialog.getByRole('button', { name: "Don't send" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('The request was not sent. Change it or send it again if you still need to.')).toBeVisible();
  await expect(rows).toHaveCount(1);

  // And once more, answered by keyboard: Send anyway (focused first) makes a second request.
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Send anyway' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Your reimbursement request has been submitted with its file.')).toBeVisible({ timeout: 30_000 });
  // The dialog gave focus back to Send request, gone with the form drawn anew: the outcome has it.
  await expect(page.getByRole('status').filter({ hasText: 'Your reimbursement request has been submitted with its file.' })).toBeFocused();
  await expect(rows).toHaveCount(2);
});

test('a request whose failed file is taken out has nothing left to send: the form starts again with focus on its first field', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/reimbursement');
  const stamp = Date.now().toString(36);
  const amount = (10 + (Date.now() % 900_000) / 100).toFixed(2);
  // The second file is refused (as the server refuses a file); the first goes through.
  await page.route('**/api/reimbursements/create', (route) =>
    (route.request().postDataJSON() as { name: string }).name.startsWith('refused')
      ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ Data: null, MsgText: 'Refused for this test.', HasError: true }) })
      : route.fallback(),
  );
  await fillRequest(page, '08032026', amount);
  await choose(page, [
    { name: `kept ${stamp}.pdf`, mimeType: 'application/pdf', buffer: pdf(2500, stamp) },
    { name: `refused ${stamp}.pdf`, mimeType: 'application/pdf', buffer: pdf(2600, stamp) },
  ]);
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('1 file could not be sent; see why beside it.')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: new RegExp(`Remove refused ${stamp}\\.pdf`) }).click();
  await page.getByRole('button', { name: 'Send request' }).press('Enter');
  // Nothing was left to send and the form is drawn anew, empty, without the Send pressed: its first field has focus.
  await expect(page.getByRole('group', { name: 'Service date' }).getByRole('spinbutton').first()).toBeFocused();
  await expect(page.getByLabel('Amount')).toHaveValue('');
});
