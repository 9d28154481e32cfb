import { serviceRef } from '@portal/core';
import type { PermissionKey } from './rules';

export type { PermissionKey } from './rules';

/**
 * The users plugin's service, read only: the per-user permissions the administration screens grant, for the plugins
 * whose routes they gate (support: ViewReports for its reports, ExportData for its list exports). Read at each call,
 * so a permission taken away counts at once.
 */
export interface UsersService {
  /** The permissions the user holds: all of the catalogue while their permissions were never saved, else the saved ones. */
  permissionsOf(userId: string): Promise<PermissionKey[]>;
  /** Whether the user holds the permission. */
  hasPermission(userId: string, permission: PermissionKey): Promise<boolean>;
}

export const usersService = serviceRef<UsersService>('users');
