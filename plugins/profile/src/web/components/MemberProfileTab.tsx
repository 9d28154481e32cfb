import { loadFailure, useApi } from '@portal/web';
import { LoadFailed, Message } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ProfileApi } from '../../contract';
import { MemberDetails } from './MemberDetails';

/** The details-profile tab of /users/:id: the member's profile by id, edited by support (view, edit, save or cancel). */
export default function MemberProfileTab({ memberId }: { memberId: number }) {
  const { t } = useTranslation('profile');
  const api = useApi();
  const queryKey = ['profile', 'member', 'support', memberId] as const;
  const member = useQuery({ queryKey, queryFn: () => api.call(ProfileApi.load, { params: { id: memberId } }, { notify: false }), retry: false });
  // A retry after a failure reads as loading until it answers (the query's status stays 'error' meanwhile).
  if (member.isPending || (member.isError && member.isFetching)) return <p aria-busy="true">{t('loading')}</p>;
  if (member.isError)
    return loadFailure(member.error) === 'notFound' ? (
      <Message kind="error">{t('memberNotFound')}</Message>
    ) : (
      <LoadFailed message={t('memberLoadError')} onRetry={() => void member.refetch()} />
    );
  return <MemberDetails member={member.data} queryKey={queryKey} forStaff />;
}
