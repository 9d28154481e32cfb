import { createContext, useCallback, useContext, useEffect, useId, useMemo, useRef } from 'react';

/** Answers, when asked, whether a part of the page holds changes the user has not saved. */
export type UnsavedCheck = () => boolean;

/** Where the parts of a page say they hold changes not saved: the app's leave guard (shell/LeaveGuard) asks them. */
export interface UnsavedRegistry {
  /** `check` while the part may hold unsaved changes; null once it cannot (saved, reverted, gone). */
  watch(id: string, check: UnsavedCheck | null): void;
}

// No guard by default: the kit renders in isolation (stories, tests) and on pages outside the signed-in layout.
export const UnsavedContext = createContext<UnsavedRegistry>({ watch: () => {} });

/**
 * Says this part of the page may hold changes the user has not saved. While `check` is given and answers true, leaving
 * the page (a link, Back, a sign-out, closing the tab) asks first. Pass a stable function (useCallback) and null when
 * nothing is changed, so the guard is armed only while there is something to lose.
 */
export function useUnsavedChanges(check: UnsavedCheck | null): void {
  const { watch } = useContext(UnsavedContext);
  const id = useId();
  useEffect(() => {
    watch(id, check);
    return () => watch(id, null);
  }, [watch, id, check]);
}

/**
 * A part of the page that can drop its own content without leaving the page (tabs whose panels are addresses): its
 * parts' unsaved changes count for the page as everywhere (`registry`, for an UnsavedContext.Provider around them),
 * and `unsaved()` says whether any of them, and only them, holds some, so a tab change asks only for its own panel.
 */
export function useUnsavedScope(): { registry: UnsavedRegistry; unsaved: UnsavedCheck } {
  const outer = useContext(UnsavedContext);
  const checks = useRef(new Map<string, UnsavedCheck>());
  const registry = useMemo<UnsavedRegistry>(
    () => ({
      watch(id, check) {
        if (check) checks.current.set(id, check);
        else checks.current.delete(id);
        outer.watch(id, check);
      },
    }),
    [outer],
  );
  const unsaved = useCallback(() => [...checks.current.values()].some((check) => check()), []);
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
