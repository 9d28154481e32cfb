import { isFocusFree, neighboursOf } from '@portal/web/focus';
import { EDIT_FIELDS, type EditField } from './drafts';

/** The key of a new row among the drafts (an existing row's is its TransactionID). */
export const NEW_ROW = 'new';

/**
 * Where focus goes when the ledger swaps a row for its edit inputs or back: an input of a row's edit, a button of a row
 * (its Edit, its Delete, or the Reload of a refused edit), or the toolbar's Add.
 */
export type FocusTarget = { row: string; field: EditField } | { row: string; control: 'edit' | 'reload' | 'delete' } | 'add';

/** A move of focus the page makes once it has drawn the change; `onlyIfLost` leaves focus alone where it still is. */
export interface FocusRequest {
  /** The candidates, best first: the first on the page and not disabled takes focus. */
  targets: FocusTarget[];
  onlyIfLost?: boolean;
}

/** The element id of a target on the page, under the page's own id prefix `base`. */
export function focusId(base: string, target: FocusTarget): string {
  if (target === 'add') return `${base}-add`;
  return 'field' in target ? `${base}-${target.row}-${target.field}` : `${base}-${target.row}-${target.control}`;
}

/** An edit opens (Edit on a row, Add): its first input. */
export const onEditOpened = (row: string): FocusRequest => ({ targets: [{ row, field: EDIT_FIELDS[0] }] });

/**
 * An edit closes (Cancel, Reload row, or a save that went through): an existing row's Edit button; a new row's the
 * row it became (`created`, its Edit button) when the list shows it. Add when that row is not on the page (a save moved
 * it to another page, or a new row was cancelled).
 */
export function onEditClosed(row: string, created: number | null = null): FocusRequest {
  if (row !== NEW_ROW) return { targets: [{ row, control: 'edit' }, 'add'] };
  return { targets: created === null ? ['add'] : [{ row: String(created), control: 'edit' }, 'add'] };
}

/**
 * A save refused: the page's rule check refused it: the input it is about (marked invalid); the server refused it as
 * stale (409, 404): the Reload of that row, its Save being disabled until then. No field (a refusal about no input):
 * focus stays where it is.
 */
export function onSaveRefused(row: string, refused: { field: EditField | null } | 'conflict'): FocusRequest | null {
  if (refused === 'conflict') return { targets: [{ row, control: 'reload' }] };
  return refused.field === null ? null : { targets: [{ row, field: refused.field }] };
}

/**
 * A row deleted (confirmed in the dialog, whose return of focus to that row's Delete finds it gone): the Delete of the
 * row that took its place (the next one shown before), else of the nearest one above, so a user clearing several
 * goes on from there; Add when no row with a Delete is left. Only while focus is lost. `shown`: the rows' keys as the
 * page showed them when Delete was confirmed, in order; rows the list no longer shows, or locked rows without a
 * Delete, are passed over when focus is picked.
 */
export function onRowDeleted(shown: readonly string[], deleted: string): FocusRequest {
  return { targets: [...neighboursOf(shown, deleted).map((row): FocusTarget => ({ row, control: 'delete' })), 'add'], onlyIfLost: true };
}

/** What picking needs of an element: a form control's disabled flag (others have none) and focus. */
export interface Focusable {
  disabled?: boolean;
  focus(): void;
}

/** The first target found on the page (`find` by id) and not disabled; null when none is. */
export function pickFocus<E extends Focusable>(request: FocusRequest, base: string, find: (id: string) => E | null): E | null {
  for (const target of request.targets) {
    const element = find(focusId(base, target));
    if (element && element.disabled !== true) return element;
  }
  return null;
}

/** Whether focus was lost: the element that had it went away, so the body (or nothing) has it. */
export const focusLost = (active: unknown, body: unknown): boolean => isFocusFree(active, body, null);
