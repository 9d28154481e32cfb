import { createContext, useCallback, useContext, useEffect, useId, useMemo, useRef } from 'react';

/** Answers, when asked, whether a part of the page holds changes the user has not saved. */
export type UnsavedCheck = () => boolean;

/**
 * A part's unsaved changes. `keptAcrossPages`: the part keeps them itself when the page goes (a draft store that lives
 * as long as the tab, as the profile's editors have), so only closing or reloading the tab would lose them.
 */
export interface UnsavedEntry {
  check: UnsavedCheck;
  keptAcrossPages: boolean;
}

/** Where the parts of a page say they hold changes not saved: the app's leave guard (shell/LeaveGuard) asks them. */
export interface UnsavedRegistry {
  /** The part's entry while it is drawn (its check is asked at each move); null once it is gone. */
  watch(id: string, entry: UnsavedEntry | null): void;
}

// No guard by default: the kit renders in isolation (stories, tests) and on pages outside the signed-in layout.
export const UnsavedContext = createContext<UnsavedRegistry>({ watch: () => {} });

/** Whether any entry holds unsaved changes; `movesOnly`: only those a move to another page would lose. */
export const anyUnsaved = (entries: Iterable<UnsavedEntry>, movesOnly: boolean): boolean => {
  for (const e of entries) if ((!movesOnly || !e.keptAcrossPages) && e.check()) return true;
  return false;
};

/**
 * Says this part of the page may hold changes the user has not saved. While `check` is given and answers true, leaving
 * the page (a link, Back, a sign-out, closing the tab) asks first; with `keptAcrossPages` (the part keeps them in a
 * store of its own that outlives the page) only a sign-out and closing or reloading the tab do. The guard calls
 * `check` at the moment of the move, so give it for as long as the part is drawn and let it read the part's state as
 * it is then (refs, the form's values), not as the last render saw it: a key pressed an instant before counts. Pass a
 * stable function (useCallback); null says the part can hold nothing unsaved.
 */
export function useUnsavedChanges(check: UnsavedCheck | null, { keptAcrossPages = false }: { keptAcrossPages?: boolean } = {}): void {
  const { watch } = useContext(UnsavedContext);
  const id = useId();
  useEffect(() => {
    watch(id, check ? { check, keptAcrossPages } : null);
    return () => watch(id, null);
  }, [watch, id, check, keptAcrossPages]);
}

/**
 * A store that keeps open edits for the life of the tab, outside any page (the profile's editors' drafts): its edits
 * outlive the form that was typed in, so a page that no longer draws that form must still be able to ask it.
 */
export interface KeptEdits {
  /** Whether it holds any open edit at all (the guard then listens for the tab closing). */
  holdsAny(): boolean;
  /** Whether any open edit holds changes from the record it was opened on: asked at a sign-out and a tab's close. */
  unsaved(): boolean;
  /** Calls `listener` when an edit opens or ends. */
  subscribe(listener: () => void): () => void;
}

const keptStores = new Set<KeptEdits>();
const keptListeners = new Set<() => void>();
const keptChanged = () => {
  for (const listener of keptListeners) listener();
};

/**
 * Says `store` keeps open edits for the life of the tab: from now on a sign-out, or closing or reloading the tab, asks
 * first while it holds unsaved changes, whatever page is drawn (a move between pages does not: the store keeps them).
 * Answers the undo.
 */
export function keepEditsForTab(store: KeptEdits): () => void {
  keptStores.add(store);
  const unsubscribe = store.subscribe(keptChanged);
  keptChanged();
  return () => {
    unsubscribe();
    keptStores.delete(store);
    keptChanged();
  };
}

/** The stores of keepEditsForTab, for the leave guard: whether any holds an edit, and whether any holds changes. */
export const keptEdits = {
  holdsAny: (): boolean => [...keptStores].some((s) => s.holdsAny()),
  unsaved: (): boolean => [...keptStores].some((s) => s.unsaved()),
  subscribe(listener: () => void): () => void {
    keptListeners.add(listener);
    return () => keptListeners.delete(listener);
  },
};

/**
 * A part of the page that can drop its own content without leaving the page (tabs whose panels are addresses): its
 * parts' unsaved changes count for the page as everywhere (`registry`, for an UnsavedContext.Provider around them),
 * and `unsaved()` says whether any of them, and only them, holds some, so a tab change asks only for its own panel.
 */
export function useUnsavedScope(): { registry: UnsavedRegistry; unsaved: UnsavedCheck } {
  const outer = useContext(UnsavedContext);
  const entries = useRef(new Map<string, UnsavedEntry>());
  const registry = useMemo<UnsavedRegistry>(
    () => ({
      watch(id, entry) {
        if (entry) entries.current.set(id, entry);
        else entries.current.delete(id);
        outer.watch(id, entry);
      },
    }),
    [outer],
  );
  // What dropping the scope's part loses: changes its parts keep themselves are not lost.
  const unsaved = useCallback(() => anyUnsaved(entries.current.values(), true), []);
  return { registry, unsaved };
}

/**
 * The form's values as one comparable text. Files compare by name, size and date (JSON drops a File's fields), so a
 * file picked after the last Save counts as a change.
 */
export function valuesText(values: unknown): string {
  return JSON.stringify(values, (_key, value: unknown) =>
    typeof File !== 'undefined' && value instanceof File ? { file: value.name, size: value.size, modified: value.lastModified } : value,
  );
}
