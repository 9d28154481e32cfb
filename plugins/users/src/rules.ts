/**
 * The user-administration roles and their rules, shared by the server (which enforces them) and the browser
 * (which applies them as boxes are clicked). Zod-free and pure.
 */
import { type AdminRole, AdminRoles, hasAnyRole, type Message, msg, Roles } from '@portal/core';

/** The role catalogue: ids are what the save envelope carries (spec 02 section 3). */
export const ROLE_CATALOGUE: readonly { Id: number; Key: AdminRole }[] = [
  { Id: 1, Key: AdminRoles.SystemAdmin },
  { Id: 2, Key: AdminRoles.Adjuster },
  { Id: 3, Key: AdminRoles.Broker },
  { Id: 4, Key: AdminRoles.TeamLead },
];
export const ROLE_KEYS: readonly AdminRole[] = ROLE_CATALOGUE.map((r) => r.Key);
export const roleKeyOf = (id: number): AdminRole | null => ROLE_CATALOGUE.find((r) => r.Id === id)?.Key ?? null;

export type PermissionKey = 'ViewCases' | 'EditCases' | 'AssignCases' | 'ApproveQuotes' | 'ViewReports' | 'ExportData';
/** The permission catalogue (per-user switches the administration screens grant on top of roles). */
export const PERMISSION_CATALOGUE: readonly { Id: number; Key: PermissionKey }[] = [
  { Id: 1, Key: 'ViewCases' },
  { Id: 2, Key: 'EditCases' },
  { Id: 3, Key: 'AssignCases' },
  { Id: 4, Key: 'ApproveQuotes' },
  { Id: 5, Key: 'ViewReports' },
  { Id: 6, Key: 'ExportData' },
];
/**
 * Permissions with nothing to gate in this product (no cases to view, edit or assign, no quote approval step): they
 * are stored and shown, marked "not used". ViewReports gates the support reports, ExportData the lists' exports
 * (enforced on the server, through the users plugin's service).
 */
export const UNUSED_PERMISSIONS: readonly PermissionKey[] = ['ViewCases', 'EditCases', 'AssignCases', 'ApproveQuotes'];
/**
 * The permissions a user holds: every one while an administrator never saved theirs (so no user lost access when
 * the permissions began to count), else exactly the saved ones.
 */
export const heldPermissions = (saved: readonly number[] | null): PermissionKey[] =>
  PERMISSION_CATALOGUE.filter((p) => saved === null || saved.includes(p.Id)).map((p) => p.Key);

/**
 * Rank of each role: nobody may grant or take away a role ranked above their own highest, nor change a user
 * who outranks them. SystemAdmin > TeamLead > Adjuster = Broker.
 */
export const ROLE_RANK: Record<AdminRole, number> = { SystemAdmin: 3, TeamLead: 2, Adjuster: 1, Broker: 1 };
export const rankOf = (roles: readonly string[]): number => Math.max(0, ...roles.filter(isRoleKey).map((r) => ROLE_RANK[r]));
/**
 * How high a user stands against someone who would change them (their name, login, company): their administration
 * rank, and a SuperUser (who may act for any member and sees every area) as high as a SystemAdmin, so neither a plain
 * CareSupport nor a TeamLead can re-address a SuperUser's login. Granting roles still goes by rankOf alone.
 */
export const standingOf = (roles: readonly string[]): number => Math.max(rankOf(roles), hasAnyRole(roles, [Roles.SuperUser]) ? ROLE_RANK.SystemAdmin : 0);
export const isRoleKey = (r: string): r is AdminRole => (ROLE_KEYS as readonly string[]).includes(r);

/** Which administration roles a caller (who already passed USERS_ACCESS) needs for each kind of change. */
export const ADMIN_CAPABILITIES = {
  roles: [AdminRoles.SystemAdmin, AdminRoles.TeamLead],
  permissions: [AdminRoles.SystemAdmin],
  quotas: [AdminRoles.SystemAdmin, AdminRoles.TeamLead],
  teams: [AdminRoles.SystemAdmin, AdminRoles.TeamLead],
} as const satisfies Record<string, readonly AdminRole[]>;
export type AdminCapability = keyof typeof ADMIN_CAPABILITIES;
export const may = (callerRoles: readonly string[], capability: AdminCapability): boolean => hasAnyRole(callerRoles, ADMIN_CAPABILITIES[capability]);

/** What a change touches: a user's details (names, contact, company: no administration role needed) or one of the capabilities. */
export type ChangeKind = AdminCapability | 'details';
/** The capabilities nobody may change on their own user (self-approval): another administrator must. */
export const NOT_ON_SELF: readonly AdminCapability[] = ['roles', 'quotas', 'teams', 'permissions'];
/** Why a change is refused: the caller lacks the capability's role, the user is a member's login, it is the caller's own, or the user outranks the caller. */
export type ChangeRefusal = 'needsRole' | 'member' | 'own' | 'outranked';

/**
 * The rule the server enforces and the browser shows (Edit only where a save can pass): whether the caller may make a
 * change of this kind to this user. `target.standing` is standingOf(the user's roles). A user never outranks
 * themself: their own details are theirs to change whatever their standing; their own roles, quotas, teams and permissions are not.
 */
export function changeRefusal(
  caller: { id: string; roles: readonly string[] },
  target: { id: string; standing: number; isMember: boolean },
  kind: ChangeKind,
): ChangeRefusal | null {
  if (kind !== 'details' && !may(caller.roles, kind)) return 'needsRole';
  if (target.isMember) return 'member';
  const self = target.id === caller.id;
  if (self) return kind !== 'details' && NOT_ON_SELF.includes(kind) ? 'own' : null;
  return target.standing > rankOf(caller.roles) ? 'outranked' : null;
}

/**
 * Role exclusivity (spec 02 section 5), one entry per rule: selecting `role` clears every role except `keeps`.
 * SystemAdmin keeps only Broker; Adjuster keeps only TeamLead; Broker clears Adjuster.
 */
export const EXCLUSIVITY_RULES: readonly { role: AdminRole; clears: readonly AdminRole[] }[] = [
  { role: AdminRoles.SystemAdmin, clears: [AdminRoles.Adjuster, AdminRoles.TeamLead] },
  { role: AdminRoles.Adjuster, clears: [AdminRoles.SystemAdmin, AdminRoles.Broker] },
  { role: AdminRoles.Broker, clears: [AdminRoles.Adjuster] },
];

/** The rules a set of roles breaks: each with the roles it holds that the rule's role may not be combined with. */
export function roleConflicts(roles: readonly string[]): { role: AdminRole; with: AdminRole[] }[] {
  const held = new Set(roles);
  return EXCLUSIVITY_RULES.filter((rule) => held.has(rule.role))
    .map((rule) => ({ role: rule.role, with: rule.clears.filter((c) => held.has(c)) }))
    .filter((c) => c.with.length > 0);
}

/** Role keys as a message, "A or B or C" (the "or" in the user's language; the keys stay as they are). */
export const orList = (items: readonly string[]): Message =>
  items.slice(1).reduce<Message>((list, next) => msg('{{list}} or {{next}}', { list, next }), items[0] ?? '');

/** The server's refusal for a forbidden combination: one sentence per broken rule. */
export const conflictMessage = (conflicts: readonly { role: AdminRole; with: readonly AdminRole[] }[]): Message =>
  conflicts
    .map((c): Message => {
      const rule = EXCLUSIVITY_RULES.find((r) => r.role === c.role);
      const allowed = ROLE_KEYS.filter((k) => k !== c.role && !rule?.clears.includes(k));
      return allowed.length
        ? msg('{{role}} cannot be combined with {{roles}} (only with {{allowed}}).', { role: c.role, roles: orList(c.with), allowed: orList(allowed) })
        : msg('{{role}} cannot be combined with {{roles}}.', { role: c.role, roles: orList(c.with) });
    })
    // The sentences side by side: a template of placeholders only, the same in every language.
    .reduce<Message>((text, sentence) => (text === '' ? sentence : msg('{{text}} {{sentence}}', { text, sentence })), '');

/**
 * What a click on a role box does in the browser: selecting a role clears the roles it may not be held with
 * (by its own rule, or by the rule of a role already held), and says which and why. Unselecting only removes.
 */
export function applyRoleClick(
  current: readonly AdminRole[],
  role: AdminRole,
  selected: boolean,
): { roles: AdminRole[]; cleared: { role: AdminRole; because: AdminRole }[] } {
  if (!selected) return { roles: current.filter((r) => r !== role), cleared: [] };
  const cleared: { role: AdminRole; because: AdminRole }[] = [];
  const own = EXCLUSIVITY_RULES.find((r) => r.role === role)?.clears ?? [];
  for (const other of current) {
    if (other === role) continue;
    if (own.includes(other)) cleared.push({ role: other, because: role });
    else if (EXCLUSIVITY_RULES.find((r) => r.role === other)?.clears.includes(role)) cleared.push({ role: other, because: other });
  }
  const gone = new Set(cleared.map((c) => c.role));
  const roles = ROLE_KEYS.filter((k) => k === role || (current.includes(k) && !gone.has(k)));
  return { roles, cleared };
}

/** A login's status as lists and the Details tab show it: a closed login (a terminated member) first, whatever IsActive says. */
export const loginStatus = (u: { IsActive: boolean; IsClosed: boolean }): 'active' | 'inactive' | 'closed' =>
  u.IsClosed ? 'closed' : u.IsActive ? 'active' : 'inactive';

/** Quota limits: whole numbers of cases from 0 to this. */
export const MAX_CASES = 100_000;
/** List sizes (spec 02 section 9). */
export const USER_PAGE_SIZE = 15;
export const TEAM_PAGE_SIZE = 10;
