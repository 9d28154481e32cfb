import { isFocusFree } from '@portal/web/focus';
/** The list's bulk actions on the selected coupons (spec 02 section 5). */
export const ACTIONS = ['activate', 'deactivate', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * Whether the selection is cleared once the action succeeded: after a delete the selected coupons no longer exist, and
 * a further Activate or Deactivate of them would be refused whole ('Some of the selected coupons no longer exist;
 * nothing was changed.'). Activate and deactivate keep it, so the same coupons can be switched back. A failed action
 * changed nothing and keeps it too.
 */
export const clearsSelection = (action: Action): boolean => action === 'delete';

/**
 * Whether Apply takes focus once the grid was started again (a delete that went through gives it a new key, so the grid
 * and the Apply in its toolbar are drawn anew: the Apply the user pressed, which the confirm dialog would give focus back
 * to, is gone). Only while focus is lost (on the body, or nowhere): a user who moved on is left where they are.
 */
export const applyTakesFocus = (restarted: boolean, active: unknown, body: unknown): boolean => restarted && isFocusFree(active, body, null);
