import { type ApiClient, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AccountApi } from '../../contract';

export const accountKeys = {
  policy: ['account', 'password-policy'],
  questions: ['account', 'security-questions'],
  link: (kind: string, urlId: string) => ['account', 'link', kind, urlId],
} as const;

/** GET reset/passwordpolicy: the server's rules, shown as the password checklist (their messages in the user's language). */
export function usePasswordPolicy() {
  const api = useApi();
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: [...accountKeys.policy, i18n.language],
    queryFn: () => api.call(AccountApi.passwordPolicy, undefined, { notify: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function fetchQuestions(api: ApiClient) {
  return api.call(AccountApi.securityQuestions, undefined, { notify: false });
}
