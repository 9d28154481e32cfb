import type { BrandManifest } from '@portal/core';
import { badRequest, brandSiteAddress, hashPassword, msg, notFound, type RouteContext, type ServerConfig, type SqlClient } from '@portal/server';
import type { SecurityQuestion } from '../contract';
import { passwordProblems, policyMessage } from './policy';

/** The account server's messages (English; their Spanish is in i18n/es.json). */
export const Text = {
  nameTaken: (name: string) =>
    msg('The user name {{name}} is already registered. Please sign in, or use Forgot Password if you do not remember your password.', { name }),
  tooManyRegistrations: (minutes: number) => msg('Too many registration attempts. Please try again in {{minutes}} minute(s).', { minutes }),
  tooManyResetMails: (minutes: number) => msg('Too many password e-mails were requested. Please try again in {{minutes}} minute(s).', { minutes }),
  tooManyPasswordFailures: (minutes: number) => msg('Too many wrong passwords were entered. Please try again in {{minutes}} minute(s).', { minutes }),
  tooManyPasswordChanges: (minutes: number) => msg('Too many password change attempts. Please try again in {{minutes}} minute(s).', { minutes }),
  tooManyEmailChanges: (minutes: number) => msg('Too many e-mail address changes were requested. Please try again in {{minutes}} minute(s).', { minutes }),
  tooManyQuestionChanges: (minutes: number) => msg('Too many changes to your security questions. Please try again in {{minutes}} minute(s).', { minutes }),
  passwordsDiffer: 'The password and its confirmation do not match.',
  unknownQuestion: 'Please choose two different questions from the list of security questions.',
  activationMailFailed: 'Your account was created, but the activation e-mail could not be sent. Please use Forgot Password to receive a new activation link.',
  oldPasswordWrong: 'The current password is incorrect.',
  passwordChangedMeanwhile: 'Your password was changed while this change was being made, so this change was not saved. Please sign in with the new password.',
  samePassword: 'The new password must be different from the current password.',
  questionsSaved: 'Your security questions have been saved.',
  emailUpdated: 'Your e-mail address has been updated.',
  emailConfirmSent: (address: string) => msg('We sent a confirmation link to {{address}}. Your e-mail address changes when you open it.', { address }),
  emailMailFailed: 'The confirmation e-mail could not be sent. Please try again later.',
  emailLinkInvalid: 'This e-mail confirmation link is not valid. It may have been used already or have expired.',
  emailTaken: (address: string) => msg('The e-mail address {{address}} is already used by another account. Please choose a different address.', { address }),
  impersonatedEmail: "While acting for a member, change the e-mail address on the member's profile.",
  noSite: 'Registration is not available on this site.',
  noAccount: 'The account no longer exists.',
};

export const isUniqueViolation = (e: unknown) => typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505';

/** Answers compare ignoring case, surrounding and repeated spaces. */
const normalizeAnswer = (a: string) => a.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The brand site's own address for e-mailed links. With SITE_ADDRESS set (config.siteAddress), that address with the
 * brand's marker word: a deployment names its public sites, whatever Host a request came on. Without it (a
 * development machine), the Host the request came on when it is the brand's <marker>.localhost host, else
 * http://<marker>.localhost:<port>. Any other Host (which a caller controls) is never put into a link, so a forged
 * Host cannot point a reset mail at another site.
 */
export function siteAddress(ctx: Pick<RouteContext, 'req' | 'config'>, brand: BrandManifest): string {
  return siteAddressOf(brand, String(ctx.req.headers.host ?? ''), ctx.req.protocol, ctx.config);
}

/** siteAddress from its parts (the account service gets them from the calling plugin). */
export function siteAddressOf(
  brand: Pick<BrandManifest, 'marker'>,
  hostHeader: string,
  protocol: string,
  config: Pick<ServerConfig, 'port' | 'siteAddress'>,
): string {
  const host = hostHeader.toLowerCase();
  const m = /^([a-z0-9-]+)\.localhost(:\d{1,5})?$/.exec(host);
  if (!config.siteAddress && m && m[1] === brand.marker) return `${protocol}://${host}`;
  return brandSiteAddress(config, brand.marker);
}

export function requireBrand(ctx: RouteContext): BrandManifest {
  // Feature plugin routes only answer on a brand's host; this guards the type.
  if (!ctx.brand) throw notFound(Text.noSite);
  return ctx.brand;
}

export function checkNewPassword(password: string, confirm: string): void {
  if (password !== confirm) throw badRequest(Text.passwordsDiffer);
  const problems = passwordProblems(password);
  if (problems.length) throw badRequest(policyMessage(problems));
}

export async function questionCatalogue(sql: SqlClient): Promise<SecurityQuestion[]> {
  const rows = await sql.query<{ id: number; text: string }>('SELECT id, text FROM account_security_questions ORDER BY sort');
  return rows.map((r) => ({ Id: r.id, Text: r.text }));
}

/** Checks the chosen questions exist and hashes the answers (before any transaction: hashing is slow on purpose). */
export async function hashAnswers(sql: SqlClient, answers: readonly { Id: number; AnswerText: string }[]) {
  const ids = answers.map((a) => a.Id);
  const known = await sql.query<{ id: number }>('SELECT id FROM account_security_questions WHERE id = ANY($1::int[])', [ids]);
  if (known.length !== new Set(ids).size || new Set(ids).size !== answers.length) throw badRequest(Text.unknownQuestion);
  return Promise.all(answers.map(async (a) => ({ id: a.Id, hash: await hashPassword(normalizeAnswer(a.AnswerText)) })));
}

export async function saveAnswers(tx: SqlClient, userId: string, hashed: readonly { id: number; hash: string }[]) {
  // One save of a user's answers at a time: two at once would each delete what was there and both insert (four answers).
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`account-answers|${userId}`]);
  await tx.query('DELETE FROM account_security_answers WHERE user_id = $1', [userId]);
  for (const a of hashed) {
    await tx.query('INSERT INTO account_security_answers (user_id, question_id, answer_hash) VALUES ($1, $2, $3)', [userId, a.id, a.hash]);
  }
}
