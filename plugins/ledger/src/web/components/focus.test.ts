import { describe, expect, it } from 'vitest';
import { type FocusRequest, focusId, focusLost, NEW_ROW, onEditClosed, onEditOpened, onRowDeleted, onSaveRefused, pickFocus } from './focus';

const base = ':r1:';

/** A page of elements by id, as document.getElementById finds them: `disabled` as a button has it. */
function page(present: Record<string, { disabled?: boolean }>) {
  const focused: string[] = [];
  const find = (id: string) => {
    const element = present[id];
    return element ? { ...element, focus: () => focused.push(id) } : null;
  };
  return { find, focused };
}
const focusOn = (request: FocusRequest | null, present: Record<string, { disabled?: boolean }>): string | null => {
  if (!request) return null;
  const { find, focused } = page(present);
  pickFocus(request, base, find)?.focus();
  return focused[0] ?? null;
};

describe('the ledger’s focus targets have ids of their own under the page’s prefix', () => {
  it('an input of a row’s edit, a row’s Edit or Reload, and Add', () => {
    expect(focusId(base, { row: '7', field: 'Amount' })).toBe(':r1:-7-Amount');
    expect(focusId(base, { row: NEW_ROW, field: 'DateCreated' })).toBe(':r1:-new-DateCreated');
    expect(focusId(base, { row: '7', control: 'edit' })).toBe(':r1:-7-edit');
    expect(focusId(base, { row: '7', control: 'reload' })).toBe(':r1:-7-reload');
    expect(focusId(base, 'add')).toBe(':r1:-add');
  });
});

describe('focus follows a row into its edit and back, never left on the page’s body', () => {
  it('Edit or Add: the first input of the edit (the date)', () => {
    expect(focusOn(onEditOpened('7'), { ':r1:-7-DateCreated': {}, ':r1:-add': {} })).toBe(':r1:-7-DateCreated');
    // Add is disabled while the new row is open: the new row's date takes focus.
    expect(focusOn(onEditOpened(NEW_ROW), { ':r1:-new-DateCreated': {}, ':r1:-add': { disabled: true } })).toBe(':r1:-new-DateCreated');
  });
  it('Cancel or a save of an existing row: back to that row’s Edit; Add when the row is no longer on the page', () => {
    expect(focusOn(onEditClosed('7'), { ':r1:-7-edit': {}, ':r1:-add': {} })).toBe(':r1:-7-edit');
    expect(focusOn(onEditClosed('7'), { ':r1:-8-edit': {}, ':r1:-add': {} })).toBe(':r1:-add');
  });
  it('a new row saved: the row it became when the list shows it, else Add; a new row cancelled: Add', () => {
    expect(focusOn(onEditClosed(NEW_ROW, 42), { ':r1:-42-edit': {}, ':r1:-add': {} })).toBe(':r1:-42-edit');
    expect(focusOn(onEditClosed(NEW_ROW, 42), { ':r1:-7-edit': {}, ':r1:-add': {} })).toBe(':r1:-add');
    expect(focusOn(onEditClosed(NEW_ROW), { ':r1:-add': {} })).toBe(':r1:-add');
    // Never the element of a row named 'new'.
    expect(onEditClosed(NEW_ROW).targets).toEqual(['add']);
  });
  it('a refused save: the input the rule is about; a stale save: the row’s Reload (its Save is disabled); no input: focus stays', () => {
    expect(focusOn(onSaveRefused('7', { field: 'Amount' }), { ':r1:-7-DateCreated': {}, ':r1:-7-Amount': {} })).toBe(':r1:-7-Amount');
    expect(focusOn(onSaveRefused(NEW_ROW, { field: 'Description' }), { ':r1:-new-Description': {} })).toBe(':r1:-new-Description');
    expect(focusOn(onSaveRefused('7', 'conflict'), { ':r1:-7-reload': {}, ':r1:-7-edit': {} })).toBe(':r1:-7-reload');
    expect(onSaveRefused('7', { field: null })).toBeNull();
  });
  it('a disabled candidate is passed over; none found: nothing takes focus', () => {
    expect(focusOn({ targets: [{ row: '7', control: 'edit' }, 'add'] }, { ':r1:-7-edit': { disabled: true }, ':r1:-add': {} })).toBe(':r1:-add');
    expect(focusOn({ targets: ['add'] }, { ':r1:-add': { disabled: true } })).toBeNull();
    expect(focusOn({ targets: ['add'] }, {})).toBeNull();
  });
});

describe('focus lost: the pressed control went away', () => {
  it('the body or nothing has focus; an element still on the page keeps it', () => {
    const body = { tag: 'body' };
    expect(focusLost(body, body)).toBe(true);
    expect(focusLost(null, body)).toBe(true);
    expect(focusLost({ tag: 'button' }, body)).toBe(false);
  });
});

describe('a row deleted: focus goes on from where it was, not to the page’s start', () => {
  const shown = ['9', '8', '7', '6'];
  it('the Delete of the row that took its place, only while focus is lost', () => {
    const request = onRowDeleted(shown, '8');
    expect(request.onlyIfLost).toBe(true);
    expect(focusOn(request, { ':r1:-9-delete': {}, ':r1:-7-delete': {}, ':r1:-6-delete': {}, ':r1:-add': {} })).toBe(':r1:-7-delete');
  });
  it('passes over locked rows (no Delete) and rows gone, then the nearest row above', () => {
    expect(focusOn(onRowDeleted(shown, '7'), { ':r1:-9-delete': {}, ':r1:-8-delete': {}, ':r1:-add': {} })).toBe(':r1:-8-delete');
  });
  it('Add when no row with a Delete is left, or the deleted row was not among those shown', () => {
    expect(focusOn(onRowDeleted(['5'], '5'), { ':r1:-add': {} })).toBe(':r1:-add');
    expect(onRowDeleted(shown, '1').targets).toEqual(['add']);
  });
});
