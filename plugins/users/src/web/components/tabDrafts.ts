import type { AdminRole, Language } from '@portal/core';
import { ApiCallError } from '@portal/web';
import { useCallback, useMemo, useState } from 'react';
import type { DraftRow } from './quota-input';

/** The Details form as typed. */
export interface DetailsValues {
  FirstName: string;
  LastName: string;
  CompanyId: number | undefined;
  ContactId: number | undefined;
  Language: Language;
}

/** The Roles boxes as clicked, and the sentences saying which box a click cleared. */
export interface RolesValues {
  roles: AdminRole[];
  cleared: string[];
}

/**
 * A tab's unsaved edit: the values as typed, the user's Version they were typed against (the save sends that
 * one, so a change made by someone else meanwhile is refused, never overwritten), and whether a save of them
 * was refused as stale (409), which the tab shows with a Reload button.
 */
export interface TabDraft<T> {
  value: T;
  /** The values the edit opened with (the user's as read): what was typed is what differs from them. */
  opened: T;
  version: number;
  stale: boolean;
}

/** The unsaved edits of the user page's tabs. They live on the page, so switching tabs keeps them. */
export interface TabDrafts {
  details?: TabDraft<DetailsValues>;
  quotas?: TabDraft<DraftRow[]>;
  roles?: TabDraft<RolesValues>;
  permissions?: TabDraft<number[]>;
}
export type DraftTab = keyof TabDrafts;
export type DraftValue<K extends DraftTab> = NonNullable<TabDrafts[K]>['value'];

/** Opens an edit of a tab against the Version its values were read with (a reload opens it again). */
export const startDraft = <K extends DraftTab>(drafts: TabDrafts, tab: K, value: DraftValue<K>, version: number): TabDrafts => ({
  ...drafts,
  [tab]: { value, opened: value, version, stale: false },
});

/** Changes an open edit's values; its Version and stale mark stay (typing does not make a stale edit current). */
export function editDraft<K extends DraftTab>(drafts: TabDrafts, tab: K, update: (value: DraftValue<K>) => DraftValue<K>): TabDrafts {
  const draft = drafts[tab];
  if (!draft) return drafts;
  return { ...drafts, [tab]: { ...draft, value: update(draft.value as DraftValue<K>) } };
}

/** Marks an edit as refused for a stale Version: its values stay on screen until the user reloads. */
export function markStale(drafts: TabDrafts, tab: DraftTab): TabDrafts {
  const draft = drafts[tab];
  return draft ? { ...drafts, [tab]: { ...draft, stale: true } } : drafts;
}

/** Ends a tab's edit (saved or cancelled). */
export function dropDraft(drafts: TabDrafts, tab: DraftTab): TabDrafts {
  if (!drafts[tab]) return drafts;
  const next = { ...drafts };
  delete next[tab];
  return next;
}

/**
 * After a save made on this page raised the user's Version from `from` to `to`, the other open edits typed against
 * `from` move to `to`: that change was ours, not someone else's, so it must not make them stale. An edit typed
 * against an older Version stays there (someone else changed the user before it was opened... or since).
 */
export function advanceVersion(drafts: TabDrafts, from: number, to: number): TabDrafts {
  const next: TabDrafts = { ...drafts };
  for (const tab of openDrafts(drafts)) {
    const draft = drafts[tab];
    if (draft && draft.version === from) Object.assign(next, { [tab]: { ...draft, version: to } });
  }
  return next;
}

/** A tab's save went through (Version `from` to `to`): its edit ends and the others follow the new Version. */
export const savedDraft = (drafts: TabDrafts, tab: DraftTab | null, from: number, to: number): TabDrafts =>
  advanceVersion(tab ? dropDraft(drafts, tab) : drafts, from, to);

/** The tabs with an edit open. */
export const openDrafts = (drafts: TabDrafts): DraftTab[] => (Object.keys(drafts) as DraftTab[]).filter((k) => drafts[k] !== undefined);

/** A tab's values as compared for changes: the roles and permissions held, in any order (a box cleared and ticked again). */
function comparable(tab: DraftTab, value: unknown): string {
  if (tab === 'roles') return JSON.stringify([...(value as RolesValues).roles].sort());
  if (tab === 'permissions') return JSON.stringify([...(value as number[])].sort((a, b) => a - b));
  return JSON.stringify(value);
}

/**
 * Whether any open edit holds values other than those it opened with: what leaving the page would lose, as the page's
 * tabs draw only the selected one and an edit of another tab is kept here, not in a form on screen. A stale edit
 * (refused, 409) still holds what was typed.
 */
export const unsavedDrafts = (drafts: TabDrafts): boolean =>
  openDrafts(drafts).some((tab) => {
    const draft = drafts[tab];
    return draft !== undefined && comparable(tab, draft.value) !== comparable(tab, draft.opened);
  });

/** A save refused because the user changed since the edit was opened (409): the tab marks its edit stale. */
export const isStaleSave = (e: unknown) => e instanceof ApiCallError && e.status === 409;

/** One tab's edit and its actions, as a tab component receives them. */
export interface TabDraftHandle<K extends DraftTab> {
  draft: TabDraft<DraftValue<K>> | undefined;
  start: (value: DraftValue<K>, version: number) => void;
  edit: (update: (value: DraftValue<K>) => DraftValue<K>) => void;
  stale: () => void;
  drop: () => void;
  /** The save of this edit went through, raising the user's Version from `from` to `to`. */
  saved: (from: number, to: number) => void;
}

/** The page's store of tab edits, for one user: opening another user starts empty. */
export function useTabDrafts(userId: string) {
  const [state, setState] = useState<{ userId: string; drafts: TabDrafts }>({ userId, drafts: {} });
  const drafts = state.userId === userId ? state.drafts : {};
  const change = useCallback((f: (d: TabDrafts) => TabDrafts) => setState((s) => ({ userId, drafts: f(s.userId === userId ? s.drafts : {}) })), [userId]);
  return useMemo(() => {
    const handle = <K extends DraftTab>(tab: K): TabDraftHandle<K> => ({
      draft: drafts[tab] as TabDraft<DraftValue<K>> | undefined,
      start: (value, version) => change((d) => startDraft(d, tab, value, version)),
      edit: (update) => change((d) => editDraft(d, tab, update)),
      stale: () => change((d) => markStale(d, tab)),
      drop: () => change((d) => dropDraft(d, tab)),
      saved: (from, to) => change((d) => savedDraft(d, tab, from, to)),
    });
    /** A change made on the page outside the drafts (a team assignment) raised the Version from `from` to `to`. */
    const saved = (from: number, to: number) => change((d) => advanceVersion(d, from, to));
    return { drafts, handle, saved };
  }, [drafts, change]);
}
