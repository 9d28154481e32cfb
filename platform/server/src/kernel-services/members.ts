import { randomInt } from 'node:crypto';
import { dayIn, MEMBER_ROLES } from '@portal/core';
import type { SqlClient } from '../db/database';
import { conflict } from '../http/errors';
import type { JobQueue } from '../jobs/queue';

/** The member record (the person behind a member login); the kernel owns it, plugins edit it through this service. */
export interface MemberRecord {
  memberId: number;
  memberNumber: string;
  brand: string;
  firstName: string;
  lastName: string;
  email: string | null;
  dateOfBirth: string | null;
  gender: string | null;
  homePhone: string | null;
  workPhone: string | null;
  mobilePhone: string | null;
  preferredContact: 'Home' | 'Work' | 'Mobile';
  isPhoneValidated: boolean;
  isMsa: boolean;
  pbmVendor: number | null;
  approvedDate: string | null;
  terminationDate: string | null;
  /** Who ended the membership: the member (My Profile) or staff (support); null when not terminated (or before it was kept). */
  terminatedBy: 'member' | 'staff' | null;
  version: number;
}

/** Fields a plugin may change; the member number, brand and id are the kernel's. */
export type MemberPatch = Partial<Omit<MemberRecord, 'memberId' | 'memberNumber' | 'brand' | 'version'>>;

export const STALE_MEMBER_MESSAGE = 'Someone else changed this profile; reload to see their change.';

const COLUMNS: Record<keyof MemberPatch, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  dateOfBirth: 'date_of_birth',
  gender: 'gender',
  homePhone: 'home_phone',
  workPhone: 'work_phone',
  mobilePhone: 'mobile_phone',
  preferredContact: 'preferred_contact',
  isPhoneValidated: 'is_phone_validated',
  isMsa: 'is_msa',
  pbmVendor: 'pbm_vendor',
  approvedDate: 'approved_date',
  terminationDate: 'termination_date',
  terminatedBy: 'terminated_by',
};

const SELECT = `SELECT member_id AS "memberId", member_number AS "memberNumber", brand, first_name AS "firstName", last_name AS "lastName", email,
  to_char(date_of_birth, 'YYYY-MM-DD') AS "dateOfBirth", gender, home_phone AS "homePhone", work_phone AS "workPhone", mobile_phone AS "mobilePhone",
  preferred_contact AS "preferredContact", is_phone_validated AS "isPhoneValidated", is_msa AS "isMsa", pbm_vendor AS "pbmVendor",
  to_char(approved_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "approvedDate",
  to_char(termination_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "terminationDate", terminated_by AS "terminatedBy", version FROM members`;

export interface MembersService {
  /** A new member record with a random unique member number. */
  create(m: { brand: string; firstName: string; lastName: string; email: string | null }, tx?: SqlClient): Promise<{ memberId: number; memberNumber: string }>;
  load(memberId: number, tx?: SqlClient): Promise<MemberRecord | null>;
  /**
   * Saves a change when `version` is the stored one and returns the record with its new version; a stale
   * version changes nothing and is refused with 409 and STALE_MEMBER_MESSAGE.
   */
  update(memberId: number, version: number, patch: MemberPatch, tx?: SqlClient): Promise<MemberRecord>;
  /** A change the member did not make in a form (e.g. a confirmed e-mail address): no version check, the version still moves. */
  set(memberId: number, patch: MemberPatch, tx?: SqlClient): Promise<void>;
  /** Whether the member id belongs to a member login (impersonation targets, support screens). */
  isMemberAccount(memberId: number, tx?: SqlClient): Promise<boolean>;
  /**
   * Whether the membership has ended (its termination date has come). `share`: the member's row is read FOR SHARE in
   * `tx`, so a termination's update of it waits for that transaction to end (a write that must not land after one).
   */
  isTerminated(memberId: number, tx?: SqlClient, opts?: { share?: boolean }): Promise<boolean>;
  /**
   * The calendar day, in `timeZone` (the business's), on which the membership ends or ended ('YYYY-MM-DD'); null when
   * it is not terminated. A service after that day is not the membership's (a new bill or reimbursement is refused).
   * `share`: the member's row is read FOR SHARE in `tx` (as `isTerminated`), so a termination committing meanwhile
   * waits for the write that checked against it.
   */
  terminationDay(memberId: number, timeZone: string, tx?: SqlClient, opts?: { share?: boolean }): Promise<string | null>;
  /**
   * Tells the plugins a membership has ended: call it in the termination's transaction (`tx`), so the two commit
   * together or not at all. It queues the kernel's `member.terminated` job, which runs each plugin's
   * `onMemberTerminated` (cancel the subscription the gateway would renew, remove linked banks) while the member is
   * still terminated, retrying a provider that fails.
   */
  announceTermination(memberId: number, tx?: SqlClient): Promise<void>;
  /**
   * Tells the plugins a terminated membership was reactivated: call it in the reactivation's transaction (`tx`). It
   * queues the kernel's `member.reactivated` job, which runs each plugin's `onMemberReactivated` (give back the
   * membership the member already paid for) while the member is still not terminated, retrying a provider that fails.
   */
  announceReactivation(memberId: number, tx?: SqlClient): Promise<void>;
}

/** The kernel's job that runs the plugins' `onMemberTerminated` for a terminated member. */
export const MEMBER_TERMINATED_JOB = 'member.terminated';
/** The kernel's job that runs the plugins' `onMemberReactivated` for a reactivated member. */
export const MEMBER_REACTIVATED_JOB = 'member.reactivated';

function assignments(patch: MemberPatch, firstParam: number): { sets: string[]; values: unknown[] } {
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const [key, value] of Object.entries(patch) as [keyof MemberPatch, unknown][]) {
    const column = COLUMNS[key];
    if (!column || value === undefined) continue;
    values.push(value);
    sets.push(`${column} = $${firstParam + values.length - 1}`);
  }
  return { sets, values };
}

export function membersService(sql: SqlClient, jobs: Pick<JobQueue, 'send'>): MembersService {
  const load = async (memberId: number, tx?: SqlClient) => (await (tx ?? sql).query<MemberRecord>(`${SELECT} WHERE member_id = $1`, [memberId]))[0] ?? null;
  return {
    async create(m, tx) {
      for (let attempt = 0; attempt < 8; attempt++) {
        const memberNumber = `R${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
        const rows = await (tx ?? sql).query<{ member_id: number }>(
          `INSERT INTO members (member_number, brand, first_name, last_name, email) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (member_number) DO NOTHING RETURNING member_id`,
          [memberNumber, m.brand, m.firstName, m.lastName, m.email],
        );
        const memberId = rows[0]?.member_id;
        if (memberId !== undefined) return { memberId, memberNumber };
      }
      throw new Error('could not generate a unique member number');
    },
    load,
    async update(memberId, version, patch, tx) {
      const { sets, values } = assignments(patch, 3);
      const rows = await (tx ?? sql).query<{ member_id: number }>(
        `UPDATE members SET ${[...sets, 'version = version + 1'].join(', ')} WHERE member_id = $1 AND version = $2 RETURNING member_id`,
        [memberId, version, ...values],
      );
      if (!rows[0]) throw conflict(STALE_MEMBER_MESSAGE);
      const saved = await load(memberId, tx);
      if (!saved) throw conflict(STALE_MEMBER_MESSAGE);
      return saved;
    },
    async set(memberId, patch, tx) {
      const { sets, values } = assignments(patch, 2);
      await (tx ?? sql).query(`UPDATE members SET ${[...sets, 'version = version + 1'].join(', ')} WHERE member_id = $1`, [memberId, ...values]);
    },
    async isTerminated(memberId, tx, opts) {
      // clock_timestamp(), not now(): now() is when the caller's transaction began, and a termination committed while
      // this read waited for the row (FOR SHARE) may be stamped after that, which now() would read as not come yet.
      const rows = await (tx ?? sql).query<{ ended: boolean }>(
        `SELECT (termination_date IS NOT NULL AND termination_date <= clock_timestamp()) AS ended FROM members WHERE member_id = $1${opts?.share ? ' FOR SHARE' : ''}`,
        [memberId],
      );
      return rows[0]?.ended === true;
    },
    async terminationDay(memberId, timeZone, tx, opts) {
      // As load() writes it ('…T…Z'), so the day is the same whichever engine and driver read it.
      const rows = await (tx ?? sql).query<{ ended: string | null }>(
        `SELECT to_char(termination_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS ended FROM members WHERE member_id = $1${opts?.share ? ' FOR SHARE' : ''}`,
        [memberId],
      );
      const ended = rows[0]?.ended ?? null;
      return ended === null ? null : dayIn(timeZone, new Date(ended));
    },
    async isMemberAccount(memberId, tx) {
      const rows = await (tx ?? sql).query(
        `SELECT 1 FROM users u JOIN user_roles r ON r.user_id = u.id WHERE u.member_id = $1 AND r.role = ANY($2::text[]) LIMIT 1`,
        [memberId, MEMBER_ROLES],
      );
      return rows.length > 0;
    },
    async announceTermination(memberId, tx) {
      await jobs.send(MEMBER_TERMINATED_JOB, { memberId }, tx ? { tx } : {});
    },
    async announceReactivation(memberId, tx) {
      await jobs.send(MEMBER_REACTIVATED_JOB, { memberId }, tx ? { tx } : {});
    },
  };
}
