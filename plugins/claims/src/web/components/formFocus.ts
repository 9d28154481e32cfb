import type { ClaimFormValues } from './ClaimForm';

/** The bill form's first field: the member's id where the form asks for it, else the claim number. */
export const firstField = (askMember: boolean): keyof ClaimFormValues => (askMember ? 'MemberID' : 'ClaimNumber');

/**
 * Where focus goes once the bill details' edit closes (saved or cancelled), the form and its buttons gone: the Edit
 * pressed to open it while the bill may still be edited, else the bill's details (someone may have changed its status
 * meanwhile, and Edit is no longer there).
 */
export const afterEditCloses = (canEdit: boolean): 'edit' | 'view' => (canEdit ? 'edit' : 'view');

/**
 * Whether a new bill's form takes focus when it opens: only a fresh form after a bill was created in place (`created`
 * bills so far), whose Save went away with the form before it. The page's first form leaves focus to the page (a new
 * page's heading takes it).
 */
export const focusFreshForm = (created: number): boolean => created > 0;
