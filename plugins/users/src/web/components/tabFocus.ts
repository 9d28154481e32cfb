import { isFocusFree, neighboursOf } from '@portal/web/focus';
import { useCallback, useEffect, useReducer, useRef } from 'react';

/**
 * Focus on the user page's tabs when the control the user pressed goes away with the part it was in (Edit, Save,
 * Cancel, Done, a team's Remove, a team deleted or renamed in the teams dialog, Create team): focus is put where the
 * user now is instead of falling to the page's start. The view/edit swaps use the kernel's useSwapFocus (a save's wish
 * names the control pressed before it was sent); the team changes, whose list is read again after the change, use
 * useTeamFocus.
 */

/**
 * Which team's control takes focus after a change to a list of teams (ids in the order shown): the team's own when it
 * is still shown (a rename, a refused change); else the one shown after it before the change (the one that took its
 * place), else the nearest one before it; null when none of them is shown (the caller then uses its fallback).
 */
export function teamFocusAfter(before: readonly string[], team: string, now: readonly string[]): string | null {
  if (now.includes(team)) return team;
  const shown = new Set(now);
  return neighboursOf(before, team).find((id) => shown.has(id)) ?? null;
}

/** A wish for focus after a team change, made once the change's outcome is known. */
export interface TeamFocusWish {
  /** The control the user pressed for the change: focus still on it, or lost, may be moved. */
  from: unknown;
  /** When the list shown had been read as the change was pressed: the wish waits for a later read (null: it need not). */
  since: number | null;
  /** The dialog mode the wish waits for (a new team: the list). */
  mode?: string;
}

/** What the list shows now: when it was read, whether a dialog over it (rename, delete question) is open, its mode. */
export interface TeamListView {
  readAt: number;
  overlay: boolean;
  mode?: string;
}

/**
 * One look at a wish for focus after a team change: it waits while a dialog over the list is still open (its own return
 * of focus, to the pressed row's button, comes first), while the list shown is not yet the one read after the change
 * (the row may still be there, about to go) and while the dialog is not in the mode asked for. Then it is settled,
 * moving focus only when it is free (on the control pressed, or lost).
 */
export function teamFocusStep(wish: TeamFocusWish | null, view: TeamListView, focusFree: boolean): { move: boolean; settled: boolean } {
  if (wish === null) return { move: false, settled: true };
  const waiting = view.overlay || (wish.since !== null && view.readAt <= wish.since) || (wish.mode !== undefined && view.mode !== wish.mode);
  if (waiting) return { move: false, settled: false };
  return { move: focusFree, settled: true };
}

/** A wish (teamFocusStep) with what it moves focus to, found on the page once it is settled. */
export interface HeldTeamFocus extends TeamFocusWish {
  target: () => HTMLElement | null;
}

/**
 * Focus after team changes: `want` a wish once a change's outcome is known; each render looks at it (teamFocusStep)
 * against `view`, what the list now shows. `want` draws again, so the wish is looked at even when the change drew
 * everything before it was made.
 */
export function useTeamFocus(view: TeamListView) {
  const wish = useRef<HeldTeamFocus | null>(null);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const held = wish.current;
    if (!held) return;
    const { move, settled } = teamFocusStep(held, view, isFocusFree(document.activeElement, document.body, held.from));
    if (settled) wish.current = null;
    if (move) held.target()?.focus();
  });
  return useCallback((next: HeldTeamFocus) => {
    wish.current = next;
    redraw();
  }, []);
}

/** The teams shown under `root`, in order, by the attribute their buttons carry (`data-team-remove="12"`). */
export function shownTeams(root: ParentNode | null, attr: string): string[] {
  if (!root) return [];
  return Array.from(root.querySelectorAll<HTMLElement>(`[${attr}]`), (el) => el.getAttribute(attr) ?? '');
}

/** The button (by `attr`) of the team teamFocusAfter picks, when it is shown and enabled; else `fallback`. */
export function teamButton(root: ParentNode | null, attr: string, before: readonly string[], team: string, fallback: () => HTMLElement | null) {
  const id = teamFocusAfter(before, team, shownTeams(root, attr));
  const el = id === null ? null : (root?.querySelector<HTMLButtonElement>(`[${attr}="${id}"]`) ?? null);
  return el && !el.disabled ? el : fallback();
}
