import { firstFieldIn, isFocusFree } from '@portal/web/focus';
import { useEffect, useRef } from 'react';

/**
 * Focus on /contacts, where the list and a contact's detail replace each other, and the detail's view its edit form:
 * the control the user pressed goes away with the part it was in, so focus is put where the user now is instead of
 * falling to the page's start.
 */

/** What the detail shows. */
export type DetailShown = 'loading' | 'failed' | 'view' | 'form';

/** What the user asked the detail to show: opening a contact asks for its view, Edit and Add contact for the form. */
export type DetailWanted = 'view' | 'form';

/**
 * Where focus goes in the detail: its heading (the contact's name, when a contact opens), the form's first field (Edit,
 * or Add contact), or the failure (a contact that could not be read). Nothing when nothing was asked, when the detail
 * shows something else than was asked, or when focus is not free.
 */
export type DetailTarget = 'heading' | 'firstField' | 'failure' | null;

/**
 * One look at a wish for focus in the detail: while the contact loads the wish waits (nothing to focus yet); once the
 * detail shows something it is settled, moving focus (DetailTarget) or not.
 */
export function detailFocusStep(wanted: DetailWanted | null, shown: DetailShown, focusFree: boolean): { target: DetailTarget; settled: boolean } {
  if (wanted === null) return { target: null, settled: true };
  if (shown === 'loading') return { target: null, settled: false };
  if (!focusFree) return { target: null, settled: true };
  if (shown === 'failed') return { target: 'failure', settled: true };
  if (shown !== wanted) return { target: null, settled: true };
  return { target: shown === 'view' ? 'heading' : 'firstField', settled: true };
}

/** Where focus goes back to in the list once the detail closes: the opened contact's name, or Add contact. */
export type ListReturn = { row: number } | 'add';

/**
 * Back from the detail (Back to list, Save or Cancel): to the name of the contact that was open, the new one's when a
 * new contact was saved, or Add contact when a new one was cancelled.
 */
export function listReturn(opened: number | 'new', savedId: number | undefined): ListReturn {
  if (opened !== 'new') return { row: opened };
  return savedId === undefined ? 'add' : { row: savedId };
}

/** Whether a contact's name, now drawn in the list, takes focus: it is the one to return to and focus is free. */
export function rowTakesFocus(back: ListReturn | null, rowId: number, focusFree: boolean): boolean {
  return back !== null && back !== 'add' && back.row === rowId && focusFree;
}

/** Focuses an element that is not a control (a heading, a message), making it focusable by script only first. */
function focusStatic(el: HTMLElement | null) {
  if (!el) return;
  if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
  el.focus();
}

/**
 * The detail's focus: it opens with `opening` wished (the view for a contact, the form for a new one); `want('form')`
 * before Edit. `rootRef` wraps all the detail shows, `fieldsRef` the form's fields.
 */
export function useDetailFocus(shown: DetailShown, opening: DetailWanted) {
  const wish = useRef<DetailWanted | null>(opening);
  const rootRef = useRef<HTMLDivElement>(null);
  const fieldsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const { target, settled } = detailFocusStep(wish.current, shown, isFocusFree(document.activeElement, document.body, null));
    if (settled) wish.current = null;
    const root = rootRef.current;
    if (!root || target === null) return;
    if (target === 'heading') focusStatic(root.querySelector<HTMLElement>('h1, h2, h3, h4, h5, h6'));
    else if (target === 'firstField') firstFieldIn(fieldsRef.current)?.focus();
    else {
      const control = firstFieldIn(root);
      if (control) control.focus();
      else focusStatic(root.querySelector<HTMLElement>('[role="alert"]'));
    }
  }, [shown]);
  const want = (next: DetailWanted) => {
    wish.current = next;
  };
  return { rootRef, fieldsRef, want };
}
