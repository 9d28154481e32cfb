import { ApiError, conflict, foldText, type Message, notFound, type SqlClient } from '@portal/server';
import { type Address, DEFAULT_ADDRESS_TYPE, ProfileMessages } from '../contract';

interface AddressRow {
  address_id: number;
  member_id: number;
  address1: string;
  address2: string | null;
  city: string;
  state: string;
  zip: string;
  address_type_id: number;
  is_current: boolean;
  version: number;
}

export const toAddress = (r: AddressRow): Address => ({
  AddressID: r.address_id,
  MemberID: r.member_id,
  Address1: r.address1,
  Address2: r.address2,
  City: r.city,
  State: r.state,
  Zip: r.zip,
  AddressTypeID: r.address_type_id,
  IsCurrent: r.is_current,
  IsSelected: false,
  Version: r.version,
});

export interface AddressFields {
  Address1: string;
  Address2: string | null;
  City: string;
  State: string;
  Zip: string;
  AddressTypeID?: number;
  IsCurrent?: boolean;
}

const COLUMNS = 'address_id, member_id, address1, address2, city, state, zip, address_type_id, is_current, version';

/** Serialises address writes per member, so "one current address" and "no address twice" hold under concurrent saves. */
async function lockMember(tx: SqlClient, memberId: number) {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`profile-address|${memberId}`]);
}

async function clearCurrent(tx: SqlClient, memberId: number, exceptId: number | null) {
  await tx.query(
    'UPDATE profile_addresses SET is_current = false, version = version + 1, updated_at = now() WHERE member_id = $1 AND is_current AND address_id <> $2',
    [memberId, exceptId ?? 0],
  );
}

/** The parts an address is told apart by: the type and the current flag are no part of it. */
type AddressParts = Pick<AddressFields, 'Address1' | 'Address2' | 'City' | 'State' | 'Zip'>;

/**
 * An address as the member's others are compared with it: Address1, Address2 (none is empty), City, State and Zip, each
 * with case and accents aside (the kernel's foldText), spaces at the ends dropped and runs of them as one. Two addresses
 * of one key are the same address, whatever their type or which one is current.
 */
export const addressKey = (a: AddressParts): string =>
  JSON.stringify([a.Address1, a.Address2 ?? '', a.City, a.State, a.Zip].map((part) => foldText(part).replace(/\s+/g, ' ').trim()));

const partsOf = (r: AddressRow): AddressParts => ({ Address1: r.address1, Address2: r.address2, City: r.city, State: r.state, Zip: r.zip });

/**
 * Refuses (409 with `message`, `DuplicateAddressID` in the answer's Data) an address the member already has
 * (addressKey), other than `exceptId` (the address being changed). Called under the member's lock, in the write's
 * transaction, so two adds of one address at once cannot both find none.
 */
async function refuseDuplicate(tx: SqlClient, memberId: number, a: AddressParts, exceptId: number | null, message: Message) {
  const rows = await tx.query<AddressRow>(`SELECT ${COLUMNS} FROM profile_addresses WHERE member_id = $1 AND address_id <> $2 ORDER BY address_id`, [
    memberId,
    exceptId ?? 0,
  ]);
  const key = addressKey(a);
  const same = rows.find((r) => addressKey(partsOf(r)) === key);
  if (same) throw new ApiError(409, message, { DuplicateAddressID: same.address_id });
}

export async function listAddresses(sql: SqlClient, memberId: number): Promise<Address[]> {
  const rows = await sql.query<AddressRow>(`SELECT ${COLUMNS} FROM profile_addresses WHERE member_id = $1 ORDER BY is_current DESC, address_id`, [memberId]);
  return rows.map(toAddress);
}

const SORT: Record<string, string> = {
  Address1: 'lower(address1)',
  City: 'lower(city)',
  State: 'state',
  Zip: 'zip',
  AddressTypeID: 'address_type_id',
  IsCurrent: 'is_current',
};

export async function searchAddresses(
  sql: SqlClient,
  memberId: number,
  q: { PageIndex: number; PageSize: number; SortColumn: string; SortOrder: 'ASC' | 'DESC'; Query?: string | undefined },
): Promise<{ Items: Address[]; ItemCount: number }> {
  const where = `member_id = $1 AND ($2::text IS NULL OR strpos(lower(address1 || ' ' || coalesce(address2, '') || ' ' || city || ' ' || state || ' ' || zip), lower($2)) > 0)`;
  const params = [memberId, q.Query || null];
  const count = (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM profile_addresses WHERE ${where}`, params))[0]?.n ?? 0;
  const order = `${SORT[q.SortColumn] ?? 'is_current'} ${q.SortOrder === 'ASC' ? 'ASC' : 'DESC'}, address_id`;
  const rows = await sql.query<AddressRow>(`SELECT ${COLUMNS} FROM profile_addresses WHERE ${where} ORDER BY ${order} LIMIT $3 OFFSET $4`, [
    ...params,
    q.PageSize,
    q.PageIndex * q.PageSize,
  ]);
  return { Items: rows.map(toAddress), ItemCount: count };
}

/** One of the member's addresses by id (null: the member has none with that id). */
export async function loadAddress(sql: SqlClient, memberId: number, addressId: number): Promise<Address | null> {
  const rows = await sql.query<AddressRow>(`SELECT ${COLUMNS} FROM profile_addresses WHERE address_id = $1 AND member_id = $2`, [addressId, memberId]);
  return rows[0] ? toAddress(rows[0]) : null;
}

/**
 * A new address; it is current when asked, or when the member has no current address yet. With `duplicate` (the
 * refusal's words for the caller), an address the member already has is refused with 409 and nothing is added.
 */
export async function createAddress(tx: SqlClient, memberId: number, a: AddressFields, duplicate: Message | null = null): Promise<Address> {
  await lockMember(tx, memberId);
  if (duplicate !== null) await refuseDuplicate(tx, memberId, a, null, duplicate);
  const hasCurrent = (await tx.query('SELECT 1 FROM profile_addresses WHERE member_id = $1 AND is_current', [memberId])).length > 0;
  const current = a.IsCurrent === true || !hasCurrent;
  if (current) await clearCurrent(tx, memberId, null);
  const rows = await tx.query<AddressRow>(
    `INSERT INTO profile_addresses (member_id, address1, address2, city, state, zip, address_type_id, is_current)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [memberId, a.Address1, a.Address2, a.City, a.State, a.Zip, a.AddressTypeID ?? DEFAULT_ADDRESS_TYPE, current],
  );
  const row = rows[0];
  if (!row) throw new Error('address insert returned no row');
  return toAddress(row);
}

/**
 * Saves a change to one of the member's addresses when `version` is the stored one; else 409 and nothing changes. The
 * current address stays current (an address stops being current only when another one is made current): unticked,
 * or saved by a caller that leaves the flag out, it would leave the member with none, and the mailing address (the
 * forms letter) would fall back to whichever address is newest. With `duplicate` (the refusal's words for the caller),
 * a change of the address's parts (addressKey) that makes it another address of the member's is refused with 409; a
 * change of its type or current flag alone never is, even for two addresses stored alike before the check existed.
 */
export async function updateAddress(
  tx: SqlClient,
  memberId: number,
  addressId: number,
  version: number,
  a: AddressFields,
  duplicate: Message | null = null,
): Promise<{ before: Address; after: Address }> {
  await lockMember(tx, memberId);
  const found = await tx.query<AddressRow>(`SELECT ${COLUMNS} FROM profile_addresses WHERE address_id = $1 AND member_id = $2`, [addressId, memberId]);
  const row = found[0];
  if (!row) throw notFound(ProfileMessages.addressNotFound);
  if (row.version !== version) throw conflict(ProfileMessages.addressStale);
  if (duplicate !== null && addressKey(partsOf(row)) !== addressKey(a)) await refuseDuplicate(tx, memberId, a, addressId, duplicate);
  if (a.IsCurrent) await clearCurrent(tx, memberId, addressId);
  const rows = await tx.query<AddressRow>(
    `UPDATE profile_addresses SET address1 = $3, address2 = $4, city = $5, state = $6, zip = $7, address_type_id = $8, is_current = $9,
       version = version + 1, updated_at = now()
     WHERE address_id = $1 AND version = $2 RETURNING ${COLUMNS}`,
    [addressId, version, a.Address1, a.Address2, a.City, a.State, a.Zip, a.AddressTypeID ?? DEFAULT_ADDRESS_TYPE, a.IsCurrent === true || row.is_current],
  );
  const saved = rows[0];
  if (!saved) throw conflict(ProfileMessages.addressStale);
  return { before: toAddress(row), after: toAddress(saved) };
}

/**
 * Registration: the member's current address is updated in place, or created (and made current). `seen` is the
 * Version of the current address the form showed (null: none); when given, an address changed or added since is a 409.
 * The wizard's one address is written as typed: it is not checked against the member's other addresses (the wizard
 * comes before the Addresses tab, and its form tells every 409 as a change made meanwhile).
 */
export async function saveCurrentAddress(tx: SqlClient, memberId: number, a: AddressFields, seen?: number | null): Promise<Address> {
  await lockMember(tx, memberId);
  const current = (await tx.query<AddressRow>(`SELECT ${COLUMNS} FROM profile_addresses WHERE member_id = $1 AND is_current`, [memberId]))[0];
  if (seen !== undefined && (current?.version ?? null) !== seen) throw conflict(ProfileMessages.addressStale);
  const fields = { ...a, IsCurrent: true, AddressTypeID: a.AddressTypeID ?? current?.address_type_id ?? DEFAULT_ADDRESS_TYPE };
  if (!current) return createAddress(tx, memberId, fields);
  return (await updateAddress(tx, memberId, current.address_id, current.version, fields)).after;
}
