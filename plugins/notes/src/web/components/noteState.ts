import type { ApiClient } from '@portal/web';
import type { Query } from '@tanstack/react-query';
import { DEFAULT_NOTE_TYPE_ID, NotesApi, STAFF_DEFAULT_NOTE_TYPE_ID } from '../../contract';

/** The unread count (the badge's, and the list's status line): one query, so both always say the same. */
export const UNREAD_KEY = ['notes', 'unread'] as const;
export const unreadQuery = (api: ApiClient) => ({
  queryKey: UNREAD_KEY,
  queryFn: () => api.call(NotesApi.unread, undefined, { skipLoadingBar: true, notify: false }),
});

/**
 * What opening a note makes stale: every notes query (the badge, the list's pages, the dashboard's recent notes, other
 * notes of the thread) whose marks it may have changed, but not the note just read (read again, it would mark it
 * again and add a read to the audit).
 */
export const staleAfterOpening =
  (openedKey: readonly unknown[]) =>
  (q: Pick<Query, 'queryKey'>): boolean =>
    q.queryKey[0] === 'notes' && JSON.stringify(q.queryKey) !== JSON.stringify(openedKey);

/** The type a new message starts with in the form: staff answer as support (Support Notes), a member writes Member Notes. */
export const defaultNoteType = (staff: boolean): number => (staff ? STAFF_DEFAULT_NOTE_TYPE_ID : DEFAULT_NOTE_TYPE_ID);
