import { ALL_ADMIN_ROLES, createKeySchema, defineEndpoint, idSchema, LANGUAGES, MAX_ID, msg, schemaText } from '@portal/core';
import { z } from 'zod';
import { MAX_CASES, orList, USER_PAGE_SIZE } from './rules';

/*
 * User and team administration (spec 02 sections 3, 5, 7 and 9). Integer ids (companies, contacts, teams,
 * roles, permissions) go through idSchema; user ids are the kernel's UUIDs.
 */

export const userIdSchema = z.uuid({ error: 'must be a user id' });
/** A required name, with its two messages (written out whole: each language words them its own way). */
const name = (required: string, tooLong: string) => z.string({ error: required }).trim().min(1, required).max(100, tooLong);
/** The user's Version when it was read: a save against another version is refused (409). */
const versionSchema = z.number({ error: 'Version must be a number' }).int().min(0).max(MAX_ID, 'is too large');
/** A team delete without the team's Version: refused (400), so a delete after another admin's rename cannot land. */
const TEAM_DELETE_VERSION_REQUIRED = 'Version is required to delete a team.';
/** The team's Version when it was read, required: a missing one is refused with TEAM_DELETE_VERSION_REQUIRED. */
const teamDeleteVersion = z
  .number({ error: (issue) => (issue.input === undefined ? TEAM_DELETE_VERSION_REQUIRED : 'Version must be a number') })
  .int()
  .min(0)
  .max(MAX_ID, 'is too large');

export const userSchema = z.object({
  Id: z.string(),
  UserName: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  Email: z.string().nullable(),
  CompanyId: z.number().int().nullable(),
  CompanyName: z.string().nullable(),
  ContactId: z.number().int().nullable(),
  Version: z.number().int(),
  IsNew: z.boolean(),
  /** Position in the list answer (0-based over all pages); 0 elsewhere. */
  Index: z.number().int(),
  IsActive: z.boolean(),
  /** The login was closed for good (a member terminated by support): it cannot sign in, whatever IsActive says. */
  IsClosed: z.boolean(),
  /** When it was closed (ISO 8601); null for an open login. */
  ClosedDate: z.string().nullable(),
  /** How high the user stands against someone who would change them (rules.standingOf of their roles): the web shows Edit by rules.changeRefusal. */
  Standing: z.number().int().nonnegative(),
  /** A member's login (the member tabs of the support screens apply); staff otherwise. */
  IsMember: z.boolean(),
  /** The member record of a member's login; null for staff. */
  MemberId: z.number().int().nullable(),
  /** The language e-mails to the user are written in: chosen here for a new login, then the one they sign in with. */
  Language: z.enum(LANGUAGES),
});
export type User = z.infer<typeof userSchema>;

/** A role filter's text as compared: accents dropped, lower case, letters and digits only ('Líder de equipo', 'liderdeequipo'). */
const roleText = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
/** Each role's names as the users page shows them, in English and Spanish (its key aside), for the Role filter. */
const ROLE_NAMES: Record<string, readonly string[]> = {
  SystemAdmin: ['System administrator', 'Administrador del sistema'],
  Adjuster: ['Ajustador'],
  Broker: ['Corredor'],
  TeamLead: ['Team lead', 'Líder de equipo'],
};
/**
 * The role keys a Role filter's text names, ignoring case, accents, spaces and punctuation: the keys (or the names the
 * page shows, English or Spanish) holding the text ('brok', 'team lead', 'admin', 'corredor', 'lider') and those the
 * text holds (the page's whole labels, 'Team lead (TeamLead)'). Empty text or a text that names no role: none.
 */
export function roleKeysOf(text: string): string[] {
  const wanted = roleText(text);
  if (!wanted) return [];
  return ALL_ADMIN_ROLES.filter((key) => [key, ...(ROLE_NAMES[key] ?? [])].map(roleText).some((name) => name.includes(wanted) || wanted.includes(name)));
}

export const USER_FILTER_ATTRIBUTES = ['UserName', 'FirstName', 'LastName', 'CompanyName', 'Role'] as const;
export type UserFilterAttribute = (typeof USER_FILTER_ATTRIBUTES)[number];
const filterMapSchema = z
  .object({
    UserName: z.string().trim().max(100).optional(),
    FirstName: z.string().trim().max(100).optional(),
    LastName: z.string().trim().max(100).optional(),
    CompanyName: z.string().trim().max(100).optional(),
    /** Part of a role key, or a role's name as the page shows it: the roles it names (roleKeysOf); none, no user. */
    Role: z.string().trim().max(100).transform(roleKeysOf).optional(),
  })
  .strict();
export type UserFilter = z.infer<typeof filterMapSchema>;

export const usersQuery = z.object({
  pageSize: z.coerce.number().int().min(1).max(100).default(USER_PAGE_SIZE),
  pageNum: z.coerce.number().int().min(1).max(1_000_000).default(1),
  sort: z.enum(['UserName', 'FirstName', 'LastName']).default('UserName'),
  sortDir: z.enum(['asc', 'desc']).default('asc'),
  /** The filter map as JSON text: {"UserName": "ann", "Role": "Broker"}; every attribute given must match. */
  filter: z
    .string()
    .max(2000)
    .optional()
    .transform((text, ctx) => {
      if (!text) return {};
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'filter must be a JSON map of attribute to text' });
        return z.NEVER;
      }
    })
    .pipe(filterMapSchema),
});

export const userPageSchema = z.object({ Items: z.array(userSchema), ItemCount: z.number().int() });

export const userSaveSchema = z.object({
  /** Empty or absent for a new user. */
  Id: z.union([userIdSchema, z.literal(''), z.null()]).optional(),
  FirstName: name(schemaText('First name is required'), schemaText('First name is too long')),
  LastName: name(schemaText('Last name is required'), schemaText('Last name is too long')),
  CompanyId: z.union([z.number(), z.string()], { error: 'Company is required' }).pipe(idSchema),
  ContactId: z.union([z.number(), z.string()], { error: 'Contact is required' }).pipe(idSchema),
  Version: versionSchema.optional(),
  IsNew: z.boolean().optional(),
  /** Set by the server from the contact's e-mail; what the browser sends is ignored. */
  UserName: z.string().max(320).optional(),
  CompanyName: z.string().max(200).nullish(),
  Index: z.number().int().optional(),
  /** The language of the user's e-mails (the activation e-mail first); a new user without one gets the caller's. */
  Language: z.enum(LANGUAGES, { error: 'Language must be en or es' }).optional(),
  /**
   * Ours, not in the spec: one key per new user, sent again unchanged when the save is retried (its answer lost), so
   * the user is added once. Used only when adding a user; a change is made once by its Version check.
   */
  IdempotencyKey: createKeySchema.nullish(),
});

/** The save envelope of a user's sub-resources (spec 02 section 3). */
const envelope = <M extends z.ZodType>(models: M) => z.object({ Id: userIdSchema, Version: versionSchema, Models: models });
const envelopeAnswer = <M extends z.ZodType>(models: M) => z.object({ Id: z.string(), Version: z.number().int(), Models: models });

/** A team; Version (not in the spec's Team) is raised by each rename, and a rename or delete names the one it saw. */
export const teamSchema = z.object({ Id: z.number().int(), TeamName: z.string(), CompanyId: z.number().int(), Version: z.number().int() });
export type Team = z.infer<typeof teamSchema>;
export const userTeamSchema = z.object({ Id: z.number().int(), TeamName: z.string() });
export type UserTeam = z.infer<typeof userTeamSchema>;

/** A number of cases, with its three messages (written out whole: each language words them its own way). */
const cases = (m: { whole: string; negative: string; atMost: string }) =>
  z.number({ error: m.whole }).int(m.whole).min(0, m.negative).max(MAX_CASES, m.atMost).nullable();
export const quotaSchema = z
  .object({
    MonthNumber: z.number({ error: 'MonthNumber must be 1 to 12' }).int().min(1, 'MonthNumber must be 1 to 12').max(12, 'MonthNumber must be 1 to 12'),
    MinimumCases: cases({
      whole: schemaText('The minimum must be a whole number'),
      negative: schemaText('The minimum cannot be negative'),
      atMost: schemaText('The minimum is at most {{max}}', { max: MAX_CASES }),
    }),
    MaximumCases: cases({
      whole: schemaText('The maximum must be a whole number'),
      negative: schemaText('The maximum cannot be negative'),
      atMost: schemaText('The maximum is at most {{max}}', { max: MAX_CASES }),
    }),
  })
  .refine((q) => (q.MinimumCases === null) === (q.MaximumCases === null), { message: 'Enter both the minimum and the maximum, or neither.' })
  .refine((q) => q.MinimumCases === null || q.MaximumCases === null || q.MinimumCases <= q.MaximumCases, {
    message: 'The minimum number of cases cannot be more than the maximum.',
  });
export type Quota = z.infer<typeof quotaSchema>;
const quotaListSchema = z
  .array(quotaSchema)
  .max(12)
  .refine((list) => new Set(list.map((q) => q.MonthNumber)).size === list.length, { message: 'Each month can appear only once.' });

export const roleSchema = z.object({ Id: z.number().int(), Key: z.string(), IsSelected: z.boolean() });
export type RoleItem = z.infer<typeof roleSchema>;
export const permissionSchema = roleSchema;
export type PermissionItem = RoleItem;

const idList = z.array(idSchema).max(50);

export const companySchema = z.object({ Id: z.number().int(), Name: z.string() });
export type Company = z.infer<typeof companySchema>;
export const contactSchema = z.object({ Id: z.number().int(), FirstName: z.string(), LastName: z.string(), Email: z.string() });
export type CompanyContact = z.infer<typeof contactSchema>;

const userIdParams = z.object({ userId: userIdSchema });
export const teamChangeSchema = envelope(z.object({ CompanyId: idSchema, Team: z.object({ Id: idSchema, TeamName: z.string().max(200).optional() }) }));
const teamAnswer = envelopeAnswer(z.array(userTeamSchema));

export const UsersApi = {
  get: defineEndpoint({ method: 'GET', path: '/api/users/get', query: usersQuery, response: userPageSchema }),
  getById: defineEndpoint({ method: 'GET', path: '/api/users/getById/:id', params: z.object({ id: userIdSchema }), response: userSchema }),
  getByRole: defineEndpoint({
    method: 'GET',
    path: '/api/users/getByRole/:role',
    params: z.object({ role: z.enum(ALL_ADMIN_ROLES as [string, ...string[]], { error: 'role must be SystemAdmin, Adjuster, Broker or TeamLead' }) }),
    response: z.array(userSchema),
  }),
  save: defineEndpoint({ method: 'POST', path: '/api/users/save', body: userSaveSchema, response: userSchema }),
  /** Sends the activation e-mail (the account plugin's single-use link) to a user who is not active yet. */
  activate: defineEndpoint({ method: 'POST', path: '/api/users/activate', body: z.object({ Id: userIdSchema }), response: z.object({ SentTo: z.string() }) }),
  teamGet: defineEndpoint({ method: 'GET', path: '/api/users/team/get/:userId', params: userIdParams, response: teamAnswer }),
  /** Assigns a team of the user's company; a team already assigned is left as it is (no duplicate). */
  teamAdd: defineEndpoint({ method: 'POST', path: '/api/users/team/add', body: teamChangeSchema, response: teamAnswer }),
  teamRemove: defineEndpoint({ method: 'POST', path: '/api/users/team/remove', body: teamChangeSchema, response: teamAnswer }),
  quotaGet: defineEndpoint({ method: 'GET', path: '/api/users/quota/get/:userId', params: userIdParams, response: envelopeAnswer(z.array(quotaSchema)) }),
  /** Replaces the months sent; a month with both numbers empty has no quota. Months not sent stay as they are. */
  quotaSave: defineEndpoint({ method: 'POST', path: '/api/users/quota/save', body: envelope(quotaListSchema), response: envelopeAnswer(z.array(quotaSchema)) }),
  roleGet: defineEndpoint({
    method: 'GET',
    path: '/api/users/role/get/:userId',
    params: userIdParams,
    response: envelopeAnswer(z.object({ ContactId: z.number().int().nullable(), Roles: z.array(roleSchema) })),
  }),
  /** Sets the user's administration roles to exactly the role ids sent (spec: "ContactId and Roles as role ids"). */
  roleSave: defineEndpoint({
    method: 'POST',
    path: '/api/users/role/save',
    body: envelope(z.object({ ContactId: idSchema.nullish(), Roles: idList })),
    response: envelopeAnswer(z.object({ ContactId: z.number().int().nullable(), Roles: z.array(roleSchema) })),
  }),
  permissionGet: defineEndpoint({
    method: 'GET',
    path: '/api/users/permission/get/:userId',
    params: userIdParams,
    response: envelopeAnswer(z.array(permissionSchema)),
  }),
  permissionSave: defineEndpoint({
    method: 'POST',
    path: '/api/users/permission/save',
    body: envelope(idList),
    response: envelopeAnswer(z.array(permissionSchema)),
  }),
  /** Companies for the pickers, by name. */
  companies: defineEndpoint({ method: 'GET', path: '/api/users/companies', response: z.array(companySchema) }),
  /** A company's contacts for the picker, by last and first name. */
  companyContacts: defineEndpoint({
    method: 'GET',
    path: '/api/users/companies/:companyId/contacts',
    params: z.object({ companyId: idSchema }),
    response: z.array(contactSchema),
  }),
} as const;

export const TeamsApi = {
  get: defineEndpoint({ method: 'GET', path: '/api/teams/get/:companyId', params: z.object({ companyId: idSchema }), response: z.array(teamSchema) }),
  getById: defineEndpoint({ method: 'GET', path: '/api/teams/getById/:id', params: z.object({ id: idSchema }), response: teamSchema }),
  /**
   * Creates (no Id) or renames a team; names are unique within a company, ignoring case. A rename needs the team's
   * Version (409 when another rename came first). A create sent again with its IdempotencyKey answers the team it added.
   */
  save: defineEndpoint({
    method: 'POST',
    path: '/api/teams/save',
    body: z.object({
      Id: z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), idSchema.nullish()),
      Version: versionSchema.optional(),
      TeamName: name(schemaText('Team name is required'), schemaText('Team name is too long')),
      CompanyId: z.union([z.number(), z.string()], { error: 'Company is required' }).pipe(idSchema),
      /** Ours, not in the spec: one key per new team, sent again unchanged on a retry; only a create (no Id) uses it. */
      IdempotencyKey: createKeySchema.nullish(),
    }),
    response: teamSchema,
  }),
  /**
   * Deletes a team and its assignments, as it was at the Version the caller read and no later: the Version is required
   * (400 without it), and a stale one is 409 (another admin renamed the team since).
   */
  delete: defineEndpoint({
    method: 'POST',
    path: '/api/teams/delete',
    body: z.object({ Id: idSchema, Version: teamDeleteVersion }),
    response: z.object({ Id: z.number().int() }),
  }),
} as const;

/** Messages the API answers with (shown as toasts); English, translated into the user's language on the way out. */
export const UsersMessages = {
  saved: 'The user has been saved.',
  /** A change that gave the user a new sign-in name (their contact's e-mail): not in the spec, which fixes no toast for it. */
  savedNewName: (name: string) =>
    msg('The user has been saved. Their sign-in name is now {{name}}; a notice was e-mailed to the old and the new address.', { name }),
  activationSent: (to: string) => msg('The activation e-mail has been sent to {{to}}.', { to }),
  stale: 'Someone else changed this user since you opened it. Reload to see their change, then make yours again.',
  notFound: 'The user does not exist.',
  memberAccount: "This is a member's login: change it on the support member screens.",
  contactNotInCompany: 'The contact does not belong to the chosen company.',
  unknownCompany: 'The company does not exist.',
  nameTaken: (name: string) => msg('A user with the user name {{name}} already exists.', { name }),
  outranked: 'You cannot change a user whose administration role is higher than yours.',
  needsRole: (roles: readonly string[]) => msg('Only a {{roles}} may make this change.', { roles: orList(roles) }),
  ownRoles: 'You cannot change your own roles; ask another administrator.',
  ownQuotas: 'You cannot change your own quotas; ask another administrator.',
  ownTeams: 'You cannot change your own teams; ask another administrator.',
  ownPermissions: 'You cannot change your own permissions; ask another administrator.',
  teamOutranked: 'You cannot change a team with a member whose administration role is higher than yours.',
  higherRole: (roles: readonly string[]) => msg('You cannot grant or remove {{roles}}: it is higher than your own role.', { roles: roles.join(', ') }),
  unknownRole: 'Unknown role.',
  unknownPermission: 'Unknown permission.',
  contactMismatch: "ContactId is not this user's contact.",
  rolesSaved: 'The roles have been saved.',
  permissionsSaved: 'The permissions have been saved.',
  quotasSaved: 'The quotas have been saved.',
  teamAdded: (team: string) => msg('The user is now on team {{team}}.', { team }),
  teamAlready: (team: string) => msg('The user is already on team {{team}}.', { team }),
  teamRemoved: (team: string) => msg('The user is no longer on team {{team}}.', { team }),
  teamNotAssigned: (team: string) => msg('The user is not on team {{team}}.', { team }),
  teamOtherCompany: "The team belongs to another company than the user's.",
  teamCompanyMismatch: 'CompanyId is not the company of the team.',
  teamNotFound: 'The team does not exist.',
  teamSaved: 'The team has been saved.',
  teamStale: 'Someone else changed this team since you opened it. Reload to see their change, then make yours again.',
  teamVersionRequired: 'Version is required to rename a team.',
  teamDeleteVersionRequired: TEAM_DELETE_VERSION_REQUIRED,
  teamDeleted: (team: string) => msg('Team {{team}} has been deleted.', { team }),
  teamNameTaken: (team: string) => msg('The company already has a team named {{team}}.', { team }),
  noCompany: 'Choose a company for the user before assigning teams.',
} as const;
