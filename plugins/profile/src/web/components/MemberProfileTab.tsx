import { useApi } from '@portal/web';
import { Message } from '@portal/web/kit';
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
  if (member.isPending) return <p aria-busy="true">{t('loading')}</p>;
  if (member.isError) return <Message kind="error">{t('loadError')}</Message>;
  return <MemberDetails member={member.data} queryKey={queryKey} forStaff />;
}
