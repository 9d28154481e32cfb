import { KernelApi } from '@portal/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../context';

/**
 * Beside the impersonation banner: says when the member acted for is terminated (the kernel's user/termination, asked
 * for that member; its key is the member's data, dropped when the member acted for changes). Staff's alone, so its own
 * chunk, never on a member's sign-in path. user/termination names no date: the member's pages show it.
 */
export function ImpersonationTermination() {
  const { api } = useKernel();
  const { t } = useTranslation();
  const termination = useQuery({
    queryKey: ['kernel', 'termination'],
    queryFn: () => api.call(KernelApi.termination, undefined, { notify: false, skipLoadingBar: true }),
    retry: false,
  });
  return termination.data?.isTerminated ? <strong data-testid="impersonation-terminated">{t('impersonation.terminated')}</strong> : null;
}
