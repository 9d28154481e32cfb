import { useRoles } from '@portal/web';
import { type AdminCapability, may } from '../../rules';

/** What the signed-in caller may change here (the server checks the same, against the roles stored now). */
export function useCaller(): Record<AdminCapability, boolean> {
  const roles = useRoles();
  return { roles: may(roles, 'roles'), permissions: may(roles, 'permissions'), quotas: may(roles, 'quotas'), teams: may(roles, 'teams') };
}

/** The locale of a language for Intl (US English or US Spanish). */
export const localeOf = (language: string) => (language.startsWith('es') ? 'es-US' : 'en-US');
