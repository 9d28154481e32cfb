import { formatDateTime } from '@portal/core';
import type { SearchProvider } from '@portal/web';
import { NOTE_SEARCH_LIMIT, NotesApi } from '../../contract';

const excerpt = (text: string) => (text.length > 70 ? `${text.slice(0, 69)}…` : text);

/**
 * The global search's notes: the member's notes whose text, author or kind of author ('Support team') matches, at most
 * 5, each opening its conversation; each says who wrote it as the list does ('Ana Pérez (Support team)').
 */
const notesSearchProvider: SearchProvider = {
  label: 'notes:search.group',
  search: async (api, text, signal, t) => {
    const notes = await api.call(NotesApi.globalSearch, { query: { q: text, s: NOTE_SEARCH_LIMIT } }, { signal, skipLoadingBar: true, notify: false });
    return notes.map((n) => ({
      id: String(n.NoteID),
      title: excerpt(n.NoteText),
      detail: `${n.CreatedBy} (${t(`kind.${n.CreatedByKind}`)}) · ${formatDateTime(n.CreatedDate)}`,
      href: `/notes/${n.NoteID}`,
    }));
  },
};
export default notesSearchProvider;
