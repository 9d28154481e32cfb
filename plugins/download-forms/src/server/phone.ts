import { type BrandManifest, type Message, msg } from '@portal/core';

/** A member-role login with no member record (only staff act for a member, and staff have no forms screen). */
export const NO_MEMBER_MESSAGE = 'Your account has no member record yet, so it has no forms. Please call us at {{phone}}.';
/** The same with no phone to give. */
export const NO_MEMBER_NO_PHONE_MESSAGE = 'Your account has no member record yet, so it has no forms.';
/** The membership has ended: no letter (an enrollment letter above all) may speak for a membership that is over. */
export const TERMINATED_MESSAGE = 'Your membership has ended, so these forms can no longer be downloaded. Questions? Call us at {{phone}}.';
/** The same with no phone to give. */
export const TERMINATED_NO_PHONE_MESSAGE = 'Your membership has ended, so these forms can no longer be downloaded.';

/**
 * The support phone a brand gives (its manifest's `contacts.phone`), or null: no brand, or a phone of blanks. A brand's
 * manifest requires a phone, so null is a safeguard: a message then leaves out the sentence that would give one, never
 * saying "call us at .".
 */
export const supportPhone = (brand: Pick<BrandManifest, 'contacts'> | null | undefined): string | null => brand?.contacts.phone.trim() || null;

/** A message that ends by giving the phone to call (`withPhone`, a {{phone}} template), or the one without that sentence. */
export const callUs = (withPhone: string, withoutPhone: string, phone: string | null): Message => (phone ? msg(withPhone, { phone }) : withoutPhone);
