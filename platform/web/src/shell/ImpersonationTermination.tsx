import { formatIsoDayText } from '@portal/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../context';
import { terminationQuery } from '../session/termination';

/**
 * Beside the impersonation banner: says when the member acted for is terminated (the kernel's user/termination, asked
 * for that member; its key is the member's data, dropped when the member acted for changes). Staff's alone, so its own
 * chunk, never on a member's sign-in path. The day is the business's (user/termination's terminationDay, ours).
 */
export function ImpersonationTermination() {
  const { api } = useKernel();
  const { t } = useTranslation();
  const termination = useQuery(terminationQuery(api));
  const data = termination.data;
  return data?.isTerminated ? (
    <strong data-testid="impersonation-terminated">
      {t('impersonation.terminated', { date: data.terminationDay ? formatIsoDayText(data.terminationDay) : '' })}
    </strong>
  ) : null;
}
