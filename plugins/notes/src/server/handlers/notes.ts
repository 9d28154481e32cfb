import { route } from '@portal/server';
import { NOTES_ACCESS, NOTES_SEARCH_ACCESS, NOTES_STAFF_ROLES } from '../../access';
import { NotesApi } from '../../contract';
import { createNote, downloadAttachment, getNote, openConversations, quickSearch, recentNotes, searchNotes, unread, updateNote } from '../repo';

/** My Messages: every call works on the conversation of the member the request acts for (own, or impersonated). */
export const noteRoutes = [
  route(NotesApi.search, { access: NOTES_ACCESS, handler: (ctx) => searchNotes(ctx, ctx.body) }),
  route(NotesApi.getById, { access: NOTES_ACCESS, handler: (ctx) => getNote(ctx, ctx.params.id) }),
  route(NotesApi.create, { access: NOTES_ACCESS, handler: (ctx) => createNote(ctx, ctx.body) }),
  route(NotesApi.update, { access: NOTES_ACCESS, handler: (ctx) => updateNote(ctx, ctx.body) }),
  route(NotesApi.attachment, { access: NOTES_ACCESS, handler: (ctx) => downloadAttachment(ctx, ctx.params.noteId, ctx.params.attachmentId) }),
  route(NotesApi.unread, { access: NOTES_ACCESS, handler: (ctx) => unread(ctx) }),
  route(NotesApi.recent, { access: NOTES_ACCESS, handler: (ctx) => recentNotes(ctx) }),
  // Support's inbox: staff only, whoever they act for.
  route(NotesApi.open, { access: NOTES_STAFF_ROLES, handler: (ctx) => openConversations(ctx) }),
  route(NotesApi.globalSearch, { access: NOTES_SEARCH_ACCESS, handler: (ctx) => quickSearch(ctx, ctx.query.q, ctx.query.s) }),
];
