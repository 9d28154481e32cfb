import { pageApi, signIn } from '../support';
import { expect, test } from '../test';

test('the toolbar search finds a bill and a note, grouped by kind, by keyboard', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance', undefined, '/help');
  const call = async (path: string, body?: unknown) => (await pageApi(page, path, body)).body.Data;
  // A bill of this member and a note whose text names it.
  const bills = (await call('/api/claims/search', { PageIndex: 0, PageSize: 5 })) as { Items: { ClaimID: number; ClaimNumber: string }[] };
  const bill = bills.Items[0];
  if (!bill) throw new Error('the demo member has no bills');
  // Words of this attempt alone: a run again after a failure finds the first attempt's note too.
  const about = `About bill ${bill.ClaimNumber}, asked ${Date.now().toString(36)}`;
  const note = (await call('/api/notes/create', { NoteText: about })) as { NoteID: number };

  const box = page.getByRole('combobox', { name: 'Search' });
  await box.fill(bill.ClaimNumber);
  const list = page.getByRole('listbox');
  await expect(list.getByText('Bills', { exact: true })).toBeVisible();
  await expect(list.getByText('Messages', { exact: true })).toBeVisible();
  await expect(list.getByRole('option', { name: new RegExp(bill.ClaimNumber) }).first()).toBeVisible();
  await expect(list.getByRole('option', { name: about })).toBeVisible();
  // A screen reader hears how many were found (a status beside the box), as many as the list shows.
  const options = await list.getByRole('option').count();
  await expect(page.getByRole('status').filter({ hasText: /found/ })).toHaveText(`${options} results found.`);

  // Keyboard: the first result is the bill; Enter opens it.
  await box.press('ArrowDown');
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/claims/${bill.ClaimID}$`));
  // The new page takes focus to its heading (Layout) once it renders, which may come after the address changed: typing
  // before that would lose the search box's list (CI, seventy-first pass).
  await expect(page.getByRole('heading', { level: 1, name: 'Bill Details' })).toBeFocused();

  // The note opens its conversation.
  await box.fill(about);
  await page.getByRole('option', { name: about }).click();
  await expect(page).toHaveURL(new RegExp(`/notes/${note.NoteID}$`));
});

test('a member without the finance role searches notes only', async ({ page }) => {
  await signIn(page, 'card', 'card.careguard', undefined, '/help');
  const box = page.getByRole('combobox', { name: 'Search' });
  await box.fill('zzzz-nothing');
  await expect(page.getByRole('listbox').getByText('Nothing found.')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Nothing found.' })).toHaveCount(1);
  await expect(page.getByRole('listbox').getByText('Bills', { exact: true })).toHaveCount(0);
});
