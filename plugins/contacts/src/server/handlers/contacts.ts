import { route } from '@portal/server';
import { CONTACTS_ACCESS, CONTACTS_SUPPORT_ACCESS } from '../../access';
import { ContactsApi } from '../../contract';
import { createContact, getContact, namedMember, ownMember, searchContacts, updateContact } from '../repo';

/** The member's own contacts (or the impersonated member's), and the support tooling's reads of a named member's. */
export const contactRoutes = [
  route(ContactsApi.search, { access: CONTACTS_ACCESS, handler: (ctx) => searchContacts(ctx, ownMember(ctx), ctx.body) }),
  route(ContactsApi.getById, { access: CONTACTS_ACCESS, handler: (ctx) => getContact(ctx, ownMember(ctx), ctx.params.id) }),
  route(ContactsApi.create, { access: CONTACTS_ACCESS, handler: (ctx) => createContact(ctx, ownMember(ctx), ctx.body) }),
  route(ContactsApi.update, { access: CONTACTS_ACCESS, handler: (ctx) => updateContact(ctx, ownMember(ctx), ctx.body) }),
  route(ContactsApi.searchForMember, {
    access: CONTACTS_SUPPORT_ACCESS,
    handler: async (ctx) => searchContacts(ctx, await namedMember(ctx, ctx.params.memberId), ctx.body),
  }),
  route(ContactsApi.getByIdForMember, {
    access: CONTACTS_SUPPORT_ACCESS,
    handler: async (ctx) => getContact(ctx, await namedMember(ctx, ctx.params.memberId), ctx.params.id),
  }),
];
