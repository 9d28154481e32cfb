import { type ApiClient, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { AccountApi } from '../../contract';

export const accountKeys = {
  policy: ['account', 'password-policy'],
  questions: ['account', 'security-questions'],
  link: (kind: string, urlId: string) => ['account', 'link', kind, urlId],
} as const;

/** GET reset/passwordpolicy: the server's rules, shown as the password checklist. */
export function usePasswordPolicy() {
  const api = useApi();
  return useQuery({
    queryKey: accountKeys.policy,
    queryFn: () => api.call(AccountApi.passwordPolicy, undefined, { notify: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function fetchQuestions(api: ApiClient) {
  return api.call(AccountApi.securityQuestions, undefined, { notify: false });
}
