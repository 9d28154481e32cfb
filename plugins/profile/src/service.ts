import { serviceRef } from '@portal/core';
import type { SqlClient } from '@portal/server';

/** A member's postal address as other plugins read it. */
export interface MailingAddress {
  address1: string;
  address2: string | null;
  city: string;
  state: string;
  zip: string;
}

/** Read-only access to a member's addresses (letters and forms filled for the member). */
export interface ProfileService {
  /** The member's current address; else the newest one; null when the member has none. */
  mailingAddress(memberId: number): Promise<MailingAddress | null>;
  /**
   * Support's members list (spec 02 section 9): one page and the count, by status and search text. `reader` is the
   * client to read with: a route's `ctx.searchSql` (the read replica when it has the caller's changes); the primary by
   * default.
   */
  memberPage(query: MemberListQuery, reader?: SqlClient): Promise<{ Items: MemberSummary[]; ItemCount: number }>;
}

export interface MemberListQuery {
  PageIndex: number;
  PageSize: 10 | 20 | 30 | 50;
  SortColumn: 'FirstName' | 'LastName' | 'MemberNumber' | 'Email' | 'ApprovedDate';
  SortOrder: 'ASC' | 'DESC';
  Status: 'Members' | 'Pending' | 'Terminated' | 'All';
  SearchString?: string;
}
export interface MemberSummary {
  MemberID: number;
  MemberNumber: string;
  FirstName: string;
  LastName: string;
  Email: string | null;
  Brand: string;
  ApprovedDate: string | null;
  TerminationDate: string | null;
}

export const profileService = serviceRef<ProfileService>('profile');
