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
}

export const profileService = serviceRef<ProfileService>('profile');
