import { serviceRef } from '@portal/core';

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
  /** Support's members list (spec 02 section 9): one page and the count, by status and search text. */
  memberPage(query: MemberListQuery): Promise<{ Items: MemberSummary[]; ItemCount: number }>;
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
