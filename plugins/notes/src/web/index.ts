import { contribute, defineWebPlugin, Extensions } from '@portal/web';
import { NEW_NOTE_PATH, NOTES_ACCESS, NOTES_PATH, NOTES_SEARCH_ACCESS, NOTES_STAFF_ROLES } from '../access';
import { prefetchRecentNotes } from './components/RecentNotesWidget.data';

export default defineWebPlugin({
  id: 'notes',
  i18n: { namespace: 'notes', load: (lng) => import(`./i18n/${lng}.json`) },
  routes: [
    {
      path: NOTES_PATH,
      access: NOTES_ACCESS,
      title: 'notes:title.list',
      nav: { label: 'notes:nav', order: 310 },
      memberData: true,
      load: () => import('./pages/NotesPage'),
    },
    { path: `${NOTES_PATH}/:id`, access: NOTES_ACCESS, title: 'notes:title.detail', memberData: true, load: () => import('./pages/NoteDetailPage') },
    { path: NEW_NOTE_PATH, access: NOTES_ACCESS, title: 'notes:title.new', memberData: true, load: () => import('./pages/NewNotePage') },
  ],
  contributes: [
    contribute(Extensions.navBadges, { id: 'notes.unread', order: 10, access: NOTES_ACCESS, path: NOTES_PATH, load: () => import('./components/UnreadBadge') }),
    contribute(Extensions.dashboardWidgets, {
      id: 'notes.recent',
      order: 50,
      access: NOTES_ACCESS,
      title: 'notes:widget.title',
      size: 'small',
      prefetch: prefetchRecentNotes,
      load: () => import('./components/RecentNotesWidget'),
    }),
    // Support's inbox: members waiting for an answer (staff only; the list is the whole team's, whoever they act for).
    contribute(Extensions.dashboardWidgets, {
      id: 'notes.open',
      // Beside the recent notes (small, 50): the two small frames share a row.
      order: 51,
      access: NOTES_STAFF_ROLES,
      title: 'notes:open.title',
      size: 'small',
      load: () => import('./components/OpenConversationsWidget'),
    }),
    contribute(Extensions.searchProviders, {
      id: 'notes.search',
      order: 20,
      access: NOTES_SEARCH_ACCESS,
      load: () => import('./components/notesSearchProvider'),
    }),
  ],
});
