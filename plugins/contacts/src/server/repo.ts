import {
  allWordsSql,
  badRequest,
  type CreateKeyRef,
  conflict,
  foldText,
  forbidden,
  notFound,
  phoneDigits,
  type RouteContext,
  type SqlClient,
  searchWords,
  sqlParams,
} from '@portal/server';
import {
  CONTACT_NOT_FOUND,
  CONTACT_TYPE_IDS,
  CONTACT_TYPE_NAMES,
  type Contact,
  type ContactCreate,
  type ContactSearch,
  type ContactSearchResult,
  type ContactUpdate,
  contactDisplayName,
  STALE_CONTACT_MESSAGE,
} from '../contract';
import { identityChanged, lockMemberContacts, refuseDuplicate } from './duplicates';

type Ctx = Pick<RouteContext, 'user' | 'memberId' | 'impersonating' | 'database' | 'services' | 'audit' | 'auditRead' | 't'>;

export const NO_MEMBER_MESSAGE = 'Your account has no contacts of its own. Choose a member to act for first.';

const COLUMNS = `contact_id AS "ContactID", member_id AS "MemberID", first_name AS "FirstName", last_name AS "LastName",
  phone AS "Phone", email AS "Email", contact_type_id AS "ContactTypeID", phone_type_id AS "PhoneTypeID",
  address_type_id AS "AddressTypeID", address1 AS "Address1", address2 AS "Address2", city AS "City",
  state_code_id AS "StateCodeID", zip AS "Zip", version AS "Version"`;

type Row = Omit<Contact, 'Name'>;
const toWire = (r: Row): Contact => ({ ...r, Name: contactDisplayName(r) });

/** The member whose own contacts this request works on: the member's own, or the impersonated one; staff acting for nobody are refused. */
export function ownMember(ctx: Pick<RouteContext, 'memberId'>): number {
  if (ctx.memberId === null) throw badRequest(NO_MEMBER_MESSAGE);
  return ctx.memberId;
}

/** Support calls name the member; staff acting for a member (impersonating) may name only that member. */
export async function namedMember(ctx: Ctx, memberId: number): Promise<number> {
  if (ctx.memberId !== null && ctx.memberId !== memberId) throw forbidden('You are acting for another member. Stop acting for them first.');
  if (!(await ctx.services.members.load(memberId))) throw notFound('The member was not found.');
  return memberId;
}

/** A type word must have this many letters to stand for the types whose names it begins ('ph' would be two types and every phone). */
const TYPE_WORD_MIN = 3;

/** The contact types whose name, in English or the reader's language (folded), begins with the word. */
export function typesOfWord(t: (message: string) => string, word: string): number[] {
  if (word.length < TYPE_WORD_MIN) return [];
  return CONTACT_TYPE_IDS.filter((id) => [CONTACT_TYPE_NAMES[id], t(CONTACT_TYPE_NAMES[id])].some((name) => foldText(name).startsWith(word)));
}

/**
 * The member's contacts a search finds, a page of them and the count. Every word of the text (the kernel's
 * searchWords: any order, commas, spacing, case and accents aside) is in the name, e-mail or phone digits, or begins
 * the name of the contact's type in the reader's language ('physician', 'médico'); or the text reads as a phone
 * number and the phone holds its digits ('(512) 555-0101', '+1 512 555 0101': a leading country code 1 is dropped).
 */
export async function searchContacts(ctx: Ctx, memberId: number, f: ContactSearch): Promise<ContactSearchResult> {
  const sql = ctx.database.sql;
  const params: unknown[] = [memberId];
  let where = 'member_id = $1';
  const words = searchWords(f.Query);
  if (words.length) {
    const param = sqlParams(params);
    const byType = (word: string) => {
      const types = typesOfWord((m) => ctx.t(m), word);
      return types.length ? `contact_type_id = ANY(${param(types)}::int[])` : null;
    };
    const all = allWordsSql(`first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '')`, words, param, byType);
    // A phone is stored as its digits and shown as (512) 555-0101: text typed as a phone finds it by its digits.
    const digits = phoneDigits(f.Query);
    where += digits ? ` AND (${all} OR strpos(coalesce(phone, ''), ${param(digits)}) > 0)` : ` AND ${all}`;
  }
  const count = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM contacts WHERE ${where}`, params))[0]?.n ?? 0;
  const rows = await sql.query<Row>(
    `SELECT ${COLUMNS} FROM contacts WHERE ${where}
     ORDER BY lower(last_name), lower(first_name), contact_id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, f.PageSize, f.PageIndex * f.PageSize],
  );
  // A read: audited off the request's path (the kernel's batched read audit), as the other plugins' reads are.
  ctx.auditRead({ action: 'contacts.search', entity: 'member', entityId: memberId, memberId, detail: { count: rows.length } });
  return { Items: rows.map(toWire), ItemCount: count };
}

async function load(sql: SqlClient, memberId: number, id: number, lock = false): Promise<Row | null> {
  const rows = await sql.query<Row>(`SELECT ${COLUMNS} FROM contacts WHERE contact_id = $1 AND member_id = $2${lock ? ' FOR UPDATE' : ''}`, [id, memberId]);
  return rows[0] ?? null;
}

/** One contact of the member; another member's (or a missing one) is 404, so ids reveal nothing. */
export async function getContact(ctx: Ctx, memberId: number, id: number): Promise<Contact> {
  const row = await load(ctx.database.sql, memberId, id);
  if (!row) throw notFound(CONTACT_NOT_FOUND);
  ctx.auditRead({ action: 'contacts.contact.read', entity: 'contact', entityId: id, memberId });
  return toWire(row);
}

const values = (b: ContactCreate) => [
  b.FirstName,
  b.LastName,
  b.Phone ?? null,
  b.Email ?? null,
  b.ContactTypeID ?? null,
  b.PhoneTypeID ?? null,
  b.AddressTypeID ?? null,
  b.Address1 ?? null,
  b.Address2 ?? null,
  b.City ?? null,
  b.StateCodeID ?? null,
  b.Zip ?? null,
];

/** The kind of record the contacts' create keys stand for (the kernel's create keys). */
export const CONTACT_CREATE_KEY_SCOPE = 'contacts.contact';

/**
 * Adds a contact for the member, audited. With an IdempotencyKey (from a signed-in user) the key is claimed first, in
 * the create's transaction: the same create sent again (a retry whose answer was lost, a second press) answers the
 * contact the first made and adds nothing (no row, no audit); the key with another contact, or for another member, is
 * refused with 409. Without a key every create adds, unless the member already has the contact (duplicates.ts): that
 * is a 409 naming it, decided under the member's contacts lock so two adds at once cannot both pass.
 */
export async function createContact(ctx: Ctx, memberId: number, b: ContactCreate): Promise<Contact> {
  const ref: CreateKeyRef | null = b.IdempotencyKey && ctx.user ? { userId: ctx.user.id, scope: CONTACT_CREATE_KEY_SCOPE, key: b.IdempotencyKey } : null;
  return ctx.database.sql.transaction(async (tx) => {
    if (ref) {
      // What the key stands for: the contact as the contract parsed it, with the member it goes to.
      const earlier = await ctx.services.createKeys.claim(tx, ref, { ...b, MemberID: memberId });
      if (earlier !== null) {
        const made = await load(tx, memberId, Number(earlier));
        if (!made) throw notFound(CONTACT_NOT_FOUND);
        return toWire(made);
      }
    }
    await lockMemberContacts(tx, memberId);
    await refuseDuplicate(tx, memberId, b);
    const rows = await tx.query<Row>(
      `INSERT INTO contacts (member_id, first_name, last_name, phone, email, contact_type_id, phone_type_id, address_type_id,
         address1, address2, city, state_code_id, zip, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) RETURNING ${COLUMNS}`,
      [memberId, ...values(b), ctx.user?.name ?? null],
    );
    const row = rows[0];
    if (!row) throw badRequest('The contact could not be added.');
    await ctx.audit({ action: 'contacts.contact.create', entity: 'contact', entityId: row.ContactID, memberId }, tx);
    if (ref) await ctx.services.createKeys.record(tx, ref, row.ContactID);
    return toWire(row);
  });
}

/**
 * Changes one of the member's contacts when `Version` is the stored one (else 409). A change of what tells the contact
 * apart (type, name, e-mail, phone) that would make it another contact of the member's is refused with 409 naming that
 * one; a change of anything else is never refused so, even for two contacts stored alike before the check existed.
 */
export async function updateContact(ctx: Ctx, memberId: number, b: ContactUpdate): Promise<Contact> {
  return ctx.database.sql.transaction(async (tx) => {
    await lockMemberContacts(tx, memberId);
    const current = await load(tx, memberId, b.ContactID, true);
    if (!current) throw notFound(CONTACT_NOT_FOUND);
    if (current.Version !== b.Version) throw conflict(STALE_CONTACT_MESSAGE);
    if (identityChanged(current, b)) await refuseDuplicate(tx, memberId, b, b.ContactID);
    const rows = await tx.query<Row>(
      `UPDATE contacts SET first_name = $3, last_name = $4, phone = $5, email = $6, contact_type_id = $7, phone_type_id = $8,
         address_type_id = $9, address1 = $10, address2 = $11, city = $12, state_code_id = $13, zip = $14,
         version = version + 1, updated_at = now(), updated_by = $15
       WHERE contact_id = $1 AND member_id = $2 RETURNING ${COLUMNS}`,
      [b.ContactID, memberId, ...values(b), ctx.user?.name ?? null],
    );
    const row = rows[0] as Row;
    await ctx.audit({ action: 'contacts.contact.update', entity: 'contact', entityId: b.ContactID, memberId, detail: { version: row.Version } }, tx);
    return toWire(row);
  });
}
