import { useIdentity, useRoles } from '@portal/web';
import type { User } from '../../contract';
import { type ChangeKind, type ChangeRefusal, changeRefusal, may } from '../../rules';

const KINDS: readonly ChangeKind[] = ['details', 'roles', 'permissions', 'quotas', 'teams'];

/**
 * Why the signed-in caller may not change each part of this user (null: they may), by the rule the server enforces
 * (rules.changeRefusal, against the roles stored now). Without a user: only whether the caller holds each capability.
 */
export function useChangeRefusals(target?: Pick<User, 'Id' | 'Standing' | 'IsMember'> | null): Record<ChangeKind, ChangeRefusal | null> {
  const roles = useRoles();
  const { data: me } = useIdentity();
  const caller = { id: me?.Id ?? '', roles };
  const refusal = (kind: ChangeKind): ChangeRefusal | null =>
    target
      ? changeRefusal(caller, { id: target.Id, standing: target.Standing, isMember: target.IsMember }, kind)
      : kind === 'details' || may(roles, kind)
        ? null
        : 'needsRole';
  return Object.fromEntries(KINDS.map((kind) => [kind, refusal(kind)])) as Record<ChangeKind, ChangeRefusal | null>;
}

/** The read-only note for a refused change: the caller's own, or a user who outranks them; else `fallback` (the role it needs). */
export const refusalNote = (t: (key: string) => string, refusal: ChangeRefusal | null, fallback: string): string =>
  refusal === 'own' ? t('refused.own') : refusal === 'outranked' ? t('refused.outranked') : fallback;

/** The locale of a language for Intl (US English or US Spanish). */
export const localeOf = (language: string) => (language.startsWith('es') ? 'es-US' : 'en-US');
