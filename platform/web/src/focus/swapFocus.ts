import { useCallback, useEffect, useReducer, useRef, useState } from 'react';

/** What a record's panel shows: its details (with an Edit button) or its edit form. */
export type RecordShown = 'view' | 'form';

/** Where focus goes after a swap: the record's Edit button, the form's first field, or nowhere (it stays). */
export type SwapTarget = 'edit' | 'firstField' | null;

/**
 * Whether focus may be moved: it is lost (on the body, or nowhere: the control that had it went away with the part it
 * was in) or still on `from`, the control that asked for the swap. A user who moved on meanwhile is left where they are.
 */
export function isFocusFree(active: unknown, body: unknown, from: unknown): boolean {
  return active === null || active === undefined || active === body || (from !== null && from !== undefined && active === from);
}

/**
 * Where focus goes once a record's panel shows `shown`, the user having asked for `wanted` (Edit asks for the form; a
 * save that went through, or Cancel, for the view): the form's first field, or the Edit button of that record. Nothing
 * when nothing was asked, when the panel does not show what was asked (a refused save stays in the form), or when focus
 * is not free.
 */
export function swapFocusTarget(wanted: RecordShown | null, shown: RecordShown, focusFree: boolean): SwapTarget {
  if (wanted === null || wanted !== shown || !focusFree) return null;
  return shown === 'view' ? 'edit' : 'firstField';
}

/**
 * One look at a wish for focus (swapFocusTarget): while the panel is not `ready` (its first field is a picker still
 * waiting, disabled, for its choices) the wish waits, and nothing moves; once ready it is settled, moving focus or not.
 */
export function swapFocusStep(wanted: RecordShown | null, shown: RecordShown, ready: boolean, focusFree: boolean): { target: SwapTarget; settled: boolean } {
  if (wanted === null) return { target: null, settled: true };
  if (!ready) return { target: null, settled: false };
  return { target: swapFocusTarget(wanted, shown, focusFree), settled: true };
}

/**
 * Where focus looks after a row of a list went (deleted, removed): the rows shown after it, nearest first (the one that
 * took its place), then the rows before it, nearest first. Empty when the row was not among `shown`.
 */
export function neighboursOf(shown: readonly string[], removed: string): string[] {
  const at = shown.indexOf(removed);
  if (at < 0) return [];
  return [...shown.slice(at + 1), ...shown.slice(0, at).reverse()];
}

/** What the first-field rule needs of an element (a DOM element's members). */
export interface FieldCandidate {
  tabIndex: number;
  disabled?: boolean;
  type?: string;
  closest(selector: string): unknown;
}

/** The elements a form's first field is sought among, in document order. */
export const FIELD_SELECTOR = 'input, select, textarea, button';
const HIDDEN = '[aria-hidden="true"], [hidden], [inert]';

/**
 * A field a keyboard user can Tab to: enabled, in the tab order and not hidden (the kit's pickers keep a native select
 * beside their button, out of the tab order and hidden from assistive technology).
 */
export function isTabbableField(el: FieldCandidate): boolean {
  return el.tabIndex >= 0 && el.disabled !== true && el.type !== 'hidden' && !el.closest(HIDDEN);
}

/** The first of `candidates` (in document order) a keyboard user can Tab to. */
export function firstTabbableField<T extends FieldCandidate>(candidates: Iterable<T>): T | null {
  for (const el of candidates) if (isTabbableField(el)) return el;
  return null;
}

/** The first field of `part` (among `selector`'s elements, in document order) a keyboard user can Tab to. */
export function firstFieldIn(part: Element | null | undefined, selector = FIELD_SELECTOR): HTMLElement | null {
  return part ? firstTabbableField(part.querySelectorAll<HTMLElement & { disabled?: boolean }>(selector)) : null;
}

/**
 * Whether focus is in `part` (on the control pressed in it, or a field Enter was pressed in) or lost: a part about to
 * be drawn anew (a form after its save) takes its focus with it, so the outcome may take it. A user who moved on
 * meanwhile is left where they are.
 */
export function focusInOrLost(part: Element | null | undefined): boolean {
  return isFocusFree(document.activeElement, document.body, null) || (part?.contains(document.activeElement) ?? false);
}

interface Wish {
  shown: RecordShown;
  /** What had focus when the swap was asked for (null: only lost focus is moved). */
  from: unknown;
}

/** A wish a panel is mounted with: `fromActive` lets it move focus from what has it at mount (the control that opened it). */
export interface InitialWish {
  shown: RecordShown;
  fromActive: boolean;
}

/**
 * Focus across a record's view/edit swap, so a keyboard or screen-reader user is not dropped to the page's start when
 * the control they pressed goes away: call `want(shown)` before the swap (Edit: 'form'; a save that went through, or
 * Cancel: 'view'); once the panel shows it and is `ready`, focus goes to `editRef` (the Edit button) or the first field
 * inside `fieldsRef` (swapFocusTarget). Until `ready` the wish waits (a picker stays disabled until its choices are in,
 * and a disabled picker cannot take focus). `initial`: a wish the panel is mounted with (an address form opened by Add).
 */
export function useSwapFocus(shown: RecordShown, { ready = true, initial }: { ready?: boolean; initial?: InitialWish } = {}) {
  const [first] = useState(initial);
  // undefined until the first effect, which takes the wish the panel was mounted with.
  const wish = useRef<Wish | null | undefined>(undefined);
  const editRef = useRef<HTMLButtonElement>(null);
  const fieldsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (wish.current === undefined) wish.current = first ? { shown: first.shown, from: first.fromActive ? document.activeElement : null } : null;
    const asked = wish.current;
    const { target, settled } = swapFocusStep(asked?.shown ?? null, shown, ready, isFocusFree(document.activeElement, document.body, asked?.from));
    if (settled) wish.current = null;
    if (target === 'edit') editRef.current?.focus();
    else if (target === 'firstField' && fieldsRef.current) {
      firstFieldIn(fieldsRef.current)?.focus();
    }
  }, [shown, ready, first]);
  /**
   * Asks for focus once the panel shows `next`, moved only while it is still on `from` or lost. `from` defaults to what
   * has focus now: the control being pressed. A wish made after an answer came (a save that went through) passes the
   * control pressed before it was sent, so a user who moved on while it saved is left where they are.
   */
  const want = (next: RecordShown, from: unknown = document.activeElement) => {
    wish.current = { shown: next, from };
  };
  return { editRef, fieldsRef, want };
}

/**
 * Which of a group's controls takes focus when the focused one, `lost`, was disabled by its own press (a pager's Next
 * on the last page): the nearest enabled one before it (Previous), else the nearest after it (First and Previous
 * disabled on the first page: Next). -1 when every control is disabled.
 */
export function nearestEnabled(disabled: readonly boolean[], lost: number): number {
  for (let i = lost - 1; i >= 0; i--) if (!disabled[i]) return i;
  for (let i = lost + 1; i < disabled.length; i++) if (!disabled[i]) return i;
  return -1;
}

/**
 * Keeps focus in a group of buttons (a pager) when the focused button is disabled by what it did: the browser drops
 * the focus of a disabled control to the page's start, and a keyboard user's next Tab would begin again at "Skip to
 * main content". After each render, a button of the group that had focus and is now disabled hands it to its nearest
 * enabled neighbour (nearestEnabled), while focus is still lost. Put the ref on the group's element.
 */
export function useKeepFocusInGroup<T extends HTMLElement>() {
  const groupRef = useRef<T>(null);
  const last = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    const group = groupRef.current;
    if (!group) return;
    const onFocusIn = (e: FocusEvent) => {
      last.current = e.target instanceof HTMLButtonElement ? e.target : null;
    };
    group.addEventListener('focusin', onFocusIn);
    return () => group.removeEventListener('focusin', onFocusIn);
  }, []);
  useEffect(() => {
    const group = groupRef.current;
    const lost = last.current;
    if (!group || !lost?.disabled || !group.contains(lost) || !isFocusFree(document.activeElement, document.body, lost)) return;
    const buttons = [...group.querySelectorAll('button')];
    const next =
      buttons[
        nearestEnabled(
          buttons.map((b) => b.disabled),
          buttons.indexOf(lost),
        )
      ];
    if (next) next.focus();
  });
  return groupRef;
}

/**
 * Focus after a list is drawn anew by an action that took away the control the user was on (a card made default or
 * deleted, a bank removed, a form closed): `want(wish)` with the change; once the list shows what the wish is about
 * (`waitsFor(wish, data)` is false), `settle(wish)` puts focus where the wish says, after the frame (a dialog closed with
 * the same change has left the page, and its focus, by then) and only while focus is lost. A wish made with no change
 * to `data` (a form's Cancel) is looked at after the next render.
 */
export function useFocusAfterRedraw<W, D>(data: D, waitsFor: (wish: W, data: D) => boolean, settle: (wish: W) => void): (wish: W) => void {
  const pending = useRef<W | null>(null);
  const latest = useRef({ waitsFor, settle });
  latest.current = { waitsFor, settle };
  const [asked, ask] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const wish = pending.current;
    if (wish === null || latest.current.waitsFor(wish, data)) return;
    pending.current = null;
    const frame = requestAnimationFrame(() => {
      if (isFocusFree(document.activeElement, document.body, null)) latest.current.settle(wish);
    });
    return () => cancelAnimationFrame(frame);
  }, [data, asked]);
  return useCallback((wish: W) => {
    pending.current = wish;
    ask();
  }, []);
}
