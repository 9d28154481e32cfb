import { inflateRawSync } from 'node:zlib';
import { expect, type Locator, type Page } from '@playwright/test';
import { signIn } from '../support';

export type GalleryTab = 'form' | 'remote' | 'local';
const TAB_NAMES: Record<GalleryTab, string> = { form: 'Form fields', remote: 'Remote grid', local: 'Local grid' };

/** Signs in as the staff super user and opens one tab of the kit gallery. */
export async function openGallery(page: Page, tab: GalleryTab = 'form') {
  await signIn(page, 'staff', 'staff.superuser', undefined, `/kit-gallery?tab=${tab}`);
  await expect(page.getByRole('tab', { name: TAB_NAMES[tab] })).toHaveAttribute('aria-selected', 'true');
}

/** A kit field by its visible label; the label may carry the "(required)" mark. */
export function field(page: Page, label: string): Locator {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.getByLabel(new RegExp(`^${escaped}\\s*(\\(required\\))?$`));
}

export const remoteGrid = (page: Page) => page.getByRole('grid', { name: 'Sample transactions' });
export const dataRows = (grid: Locator) => grid.locator('tbody tr[aria-rowindex]');

/** Texts of one column's cells on the current page, by the column's header text. */
export async function columnTexts(grid: Locator, header: string): Promise<string[]> {
  return grid.evaluate((table, name) => {
    const heads = [...table.querySelectorAll('thead tr:first-child th')];
    const index = heads.findIndex((th) => (th.textContent ?? '').trim().startsWith(name));
    if (index < 0) throw new Error(`no column ${name}`);
    return [...table.querySelectorAll('tbody tr[aria-rowindex]')].map((tr) => (tr.children[index]?.textContent ?? '').trim());
  }, header);
}

/** The grid's total from the pager's "from–to of total". */
export async function gridTotal(page: Page): Promise<number> {
  const text =
    (await page
      .getByRole('navigation', { name: 'Pagination' })
      .getByText(/–\d+ of \d+$/)
      .textContent()) ?? '';
  return Number(/of (\d+)$/.exec(text)?.[1]);
}

export const money = (text: string) => Number(text.replace(/[$,]/g, ''));

/** Entries of a zip (stored or deflated) by name. */
export function unzip(bytes: Buffer): Map<string, string> {
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip');
  const count = bytes.readUInt16LE(eocd + 10);
  let at = bytes.readUInt32LE(eocd + 16);
  const files = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    if (bytes.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory');
    const method = bytes.readUInt16LE(at + 10);
    const size = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const raw = bytes.subarray(start, start + size);
    files.set(name, (method === 8 ? inflateRawSync(raw) : raw).toString('utf8'));
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return files;
}
