import { queryKeys } from '@portal/web';
import { keepEditsForTab } from '@portal/web/kit';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { type Draft, DraftStore, endWithSession } from './drafts';

/** The profile editors' open edits, for the life of the page (a tab switch does not end them). */
const store = new DraftStore();
// A sign-out, or closing the tab, asks while one of them holds changes, whichever page is drawn then.
keepEditsForTab(store);
const bound = new WeakSet<QueryClient>();

/** The store of open edits, its edits ended with the session (see endWithSession). */
export function useDraftStore(): DraftStore {
  const queryClient = useQueryClient();
  if (!bound.has(queryClient)) {
    bound.add(queryClient);
    endWithSession(store, queryClient, queryKeys.identity);
  }
  return store;
}

/** The open edit under `key` (null: none asked for), redrawn when it opens or ends. */
export function useDraft<R, V>(key: string | null): Draft<R, V> | undefined {
  const drafts = useDraftStore();
  return useSyncExternalStore(drafts.subscribe, () => (key === null ? undefined : drafts.get<R, V>(key)));
}

/** What KeepTyped needs of a kit form (useKitForm, or the one a Form hands its children). */
interface TypedForm {
  watch: (callback: () => void) => { unsubscribe: () => void };
  getValues: () => unknown;
}

/**
 * Keeps what is typed in `form` in the edit under `draftKey`, so a form drawn again for that edit (a tab switch and
 * back) shows it. Put inside the Form; draws nothing.
 */
export function KeepTyped({ form, draftKey }: { form: TypedForm; draftKey: string }): null {
  const drafts = useDraftStore();
  useEffect(() => {
    const watching = form.watch(() => drafts.edit(draftKey, form.getValues()));
    return () => watching.unsubscribe();
  }, [form, draftKey, drafts]);
  return null;
}
