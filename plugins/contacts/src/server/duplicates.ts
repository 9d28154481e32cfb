import { ApiError, foldText, type SqlClient } from '@portal/server';
import { DUPLICATE_CONTACT_MESSAGE } from '../contract';

/** What tells one contact from another: its type, its name and how to reach it. */
export interface ContactIdentity {
  FirstName: string;
  LastName: string;
  Email?: string | null;
  Phone?: string | null;
  ContactTypeID?: number | null;
}

/** A name as it is compared: case and accents aside (the kernel's foldText), spaces at the ends dropped and runs of them as one. */
export const nameKey = (name: string): string => foldText(name).replace(/\s+/g, ' ').trim();
/** An e-mail as it is compared: case aside; none is null. */
const emailKey = (email: string | null | undefined): string | null => email?.trim().toLowerCase() || null;
/** A phone as it is compared: its digits (the contract stores them so already); none is null. */
const phoneKey = (phone: string | null | undefined): string | null => phone?.replace(/\D/g, '') || null;

/**
 * Whether two contacts are the same one to the member: the same type (none counts as a type), the same first and last
 * name (case, accents and spacing aside), and the same way to reach them: the same e-mail (case aside) or the same phone
 * digits, when both have one; two that have neither an e-mail nor a phone cannot be told apart, so they are the same
 * too. One with only a phone and one with only an e-mail are two contacts (nothing says they are one person).
 */
export function sameContact(a: ContactIdentity, b: ContactIdentity): boolean {
  if ((a.ContactTypeID ?? null) !== (b.ContactTypeID ?? null)) return false;
  if (nameKey(a.FirstName) !== nameKey(b.FirstName) || nameKey(a.LastName) !== nameKey(b.LastName)) return false;
  const [emailA, emailB, phoneA, phoneB] = [emailKey(a.Email), emailKey(b.Email), phoneKey(a.Phone), phoneKey(b.Phone)];
  if (emailA !== null && emailA === emailB) return true;
  if (phoneA !== null && phoneA === phoneB) return true;
  return emailA === null && emailB === null && phoneA === null && phoneB === null;
}

/** Whether an update changes what tells the contact apart (sameContact's fields, as compared): only then can it make a duplicate. */
export function identityChanged(before: ContactIdentity, after: ContactIdentity): boolean {
  return (
    (before.ContactTypeID ?? null) !== (after.ContactTypeID ?? null) ||
    nameKey(before.FirstName) !== nameKey(after.FirstName) ||
    nameKey(before.LastName) !== nameKey(after.LastName) ||
    emailKey(before.Email) !== emailKey(after.Email) ||
    phoneKey(before.Phone) !== phoneKey(after.Phone)
  );
}

/**
 * Serialises the member's contact writes (create and update): the duplicate check and the write it allows are one
 * step, so two adds of the same contact at once cannot both find none. Held until the transaction ends.
 */
export async function lockMemberContacts(tx: SqlClient, memberId: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), $2)', ['contacts.member', memberId]);
}

/**
 * Refuses (409, `DuplicateContactID` in the answer's Data) a contact the member already has (sameContact), other than
 * `exceptId` (the contact being changed). Call it in the write's transaction after lockMemberContacts.
 */
export async function refuseDuplicate(tx: SqlClient, memberId: number, c: ContactIdentity, exceptId: number | null = null): Promise<void> {
  const rows = await tx.query<ContactIdentity & { ContactID: number }>(
    `SELECT contact_id AS "ContactID", first_name AS "FirstName", last_name AS "LastName", email AS "Email", phone AS "Phone",
       contact_type_id AS "ContactTypeID"
     FROM contacts WHERE member_id = $1 AND contact_type_id IS NOT DISTINCT FROM $2::int AND contact_id <> $3::int ORDER BY contact_id`,
    [memberId, c.ContactTypeID ?? null, exceptId ?? 0],
  );
  const same = rows.find((r) => sameContact(r, c));
  if (same) throw new ApiError(409, DUPLICATE_CONTACT_MESSAGE, { DuplicateContactID: same.ContactID });
}
