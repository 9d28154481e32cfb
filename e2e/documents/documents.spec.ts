import { readFileSync } from 'node:fs';
import { axeAndReflow } from '../axe';
import { DEMO_PASSWORD, signIn, site } from '../support';
import { expect, test } from '../test';

const seriousOrWorse = (violations: { impact?: string | null; id: string; nodes: { target: unknown }[] }[]) =>
  violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);

const axe = async (page: import('@playwright/test').Page) => {
  const results = await axeAndReflow(page, 'main', ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  expect(seriousOrWorse(results.violations)).toEqual([]);
};

test('a finance member lists documents, picks a statement year and downloads the statement of a month', async ({ page }) => {
  await signIn(page, 'finance', 'finance.careguardfinance');
  await page.getByRole('navigation').getByRole('link', { name: 'Documents', exact: true }).click();
  await expect(page).toHaveURL(/\/documents$/);
  const rows = page.getByTestId('documents').locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  await expect(page.getByTestId('documents')).toContainText(/1099|Annual Accounting/);
  await page.getByLabel('Document type').selectOption({ label: 'Annual Accounting' });
  await expect(rows.filter({ hasNotText: 'Annual Accounting' })).toHaveCount(0);
  await axe(page);

  // The statement years fail to load (the query's one retry too): the page says so in place with Try again, and no
  // toast says it a second time.
  let failures = 2;
  await page.route('**/api/statements/getMemberStatementsEffectiveYears', (route) => {
    if (failures === 0) return route.continue();
    failures -= 1;
    return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ Message: 'Server error' }) });
  });
  await page.getByRole('navigation').getByRole('link', { name: 'Statements', exact: true }).click();
  await expect(page).toHaveURL(/\/statements$/);
  await expect(page.getByTestId('years-error')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('alert')).toHaveCount(0);
  await page.getByTestId('years-error').getByRole('button', { name: 'Try again' }).click();
  const year = page.getByLabel('Year');
  const lastYear = String(new Date().getUTCFullYear() - 1);
  // The years load after the page: wait for last year's before reading the list.
  await expect(year.locator('option', { hasText: lastYear })).toHaveCount(1);
  const years = await year.locator('option').allTextContents();
  expect(years).toContain(lastYear);
  await year.selectOption(lastYear);
  const statement = page.getByTestId('statements').locator('tbody tr', { hasText: `December ${lastYear}` });
  await expect(statement).toBeVisible();
  await axe(page);
  const [download] = await Promise.all([page.waitForEvent('download'), statement.getByRole('button', { name: `Download December ${lastYear}` }).click()]);
  expect(download.suggestedFilename()).toBe(`statement-${lastYear}-12.pdf`);
  const pdf = readFileSync(await download.path());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  // The info dictionary's creation date is the statement's last day.
  expect(pdf.toString('latin1')).toContain(`(D:${lastYear}1231000000Z)`);
});

test('a member whose browser reads Spanish downloads a statement written in Spanish, under the same file name', async ({ browser }) => {
  const page = await (await browser.newContext({ locale: 'es-US' })).newPage();
  await page.goto(site('finance', '/login'));
  await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
  await page.getByLabel('Nombre de usuario').fill('finance.careguardfinance');
  await page.getByLabel('Contraseña', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.getByRole('navigation').getByRole('link', { name: 'Estados de cuenta', exact: true }).click();
  const lastYear = String(new Date().getUTCFullYear() - 1);
  const year = page.getByLabel('Año');
  await expect(year.locator('option', { hasText: lastYear })).toHaveCount(1);
  await year.selectOption(lastYear);
  const statement = page.getByTestId('statements').locator('tbody tr', { hasText: `diciembre de ${lastYear}` });
  await expect(statement).toBeVisible();
  await axe(page);
  const [download] = await Promise.all([page.waitForEvent('download'), statement.getByRole('button', { name: /^Descargar/ }).click()]);
  expect(download.suggestedFilename()).toBe(`statement-${lastYear}-12.pdf`);
  const pdf = readFileSync(await download.path()).toString('latin1');
  // The document's language and title as the server wrote them (the title is a plain string object in the file).
  expect(pdf).toContain('/Lang (es-US)');
  expect(pdf).toContain(`(Estado de cuenta de diciembre de ${lastYear})`);
  // The documents list in Spanish, whose longer words (the pager's "Página siguiente") wrap on a phone.
  await page.getByRole('navigation').getByRole('link', { name: 'Documentos', exact: true }).click();
  await expect(page.getByTestId('documents')).toBeVisible();
  await axe(page);
  await page.context().close();
});

test('SuperUser acting for a finance member adds a PDF to their documents, and the member sees it', async ({ browser }) => {
  const member = await (await browser.newContext()).newPage();
  await signIn(member, 'finance', 'finance.careguardfinance');
  const memberId = await member.evaluate(async () => {
    const r = await fetch('/api/members/load', {
      headers: { authorization: `Bearer ${sessionStorage.getItem('cq.accessToken')}`, 'x-form-token': sessionStorage.getItem('cq.formToken') ?? '' },
    });
    return (await r.json()).Data.MemberID as number;
  });

  const staff = await (await browser.newContext()).newPage();
  await signIn(staff, 'staff', 'staff.superuser');
  await staff.getByLabel('Member ID or number to act for').fill(String(memberId));
  await staff.getByRole('button', { name: 'Act for member' }).click();
  await expect(staff.getByText(`Acting on behalf of member ${memberId}`)).toBeVisible();
  await staff.goto(staff.url().replace(/\/[^/]*$/, '/documents'));
  const form = staff.getByRole('form', { name: 'Add a document for this member' });
  await expect(form).toBeVisible();
  await axe(staff);
  const name = `letter-${Date.now().toString(36)}.pdf`;
  await form.getByRole('button', { name: /Kind of document/ }).click();
  await staff.getByRole('listbox').getByRole('option', { name: 'Permanent Depletion Letter' }).click();
  await form.getByRole('group', { name: 'Date of the document' }).getByRole('spinbutton').first().click();
  await staff.keyboard.type('06302026');
  const chooser = staff.waitForEvent('filechooser');
  await form.getByRole('button', { name: /Choose file/i }).click();
  await (await chooser).setFiles({
    name,
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  });
  await form.getByRole('button', { name: 'Add document' }).click();
  await expect(staff.getByText(`${name} has been added to the member's documents.`)).toBeVisible();
  // The form is drawn anew, empty, without the Add document pressed: the outcome takes focus.
  await expect(form.getByRole('status').filter({ hasText: `${name} has been added to the member's documents.` })).toBeFocused();
  await expect(staff.getByTestId('documents')).toContainText(name);

  await member.reload();
  await member.goto(member.url().replace(/\/[^/]*$/, '/documents'));
  await expect(member.getByTestId('documents')).toContainText(name);
});
