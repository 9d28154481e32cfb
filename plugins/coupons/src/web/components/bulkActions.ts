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

/**
 * The Version of each coupon the list has shown, so a bulk action names the version the user saw and the server can
 * refuse it whole when someone changed one of them meanwhile. A coupon selected without being shown (select across
 * pages) goes by id alone.
 */
export class SeenVersions {
  private readonly versions = new Map<number, number>();

  /** Records the coupons of a page the list has just shown. */
  see(rows: readonly { ID: number; Version: number }[]): void {
    for (const row of rows) this.versions.set(row.ID, row.Version);
  }

  /** The action's body: each selected coupon with the Version the list showed, or its id alone. */
  refs(selected: readonly string[]): (number | { ID: number; Version: number })[] {
    return selected.map(Number).map((id) => {
      const version = this.versions.get(id);
      return version === undefined ? id : { ID: id, Version: version };
    });
  }

  /**
   * After an action went through: activate and deactivate raise each coupon's Version by one (all of them or none), so
   * the selection kept for the next action still names the current versions, on pages not shown again too.
   */
  applied(action: Action, selected: readonly string[]): void {
    for (const id of new Set(selected.map(Number))) {
      const version = this.versions.get(id);
      if (action === 'delete') this.versions.delete(id);
      else if (version !== undefined) this.versions.set(id, version + 1);
    }
  }
}
