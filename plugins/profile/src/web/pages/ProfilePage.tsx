import { ApiCallError, useApi } from '@portal/web';
import { Message, Tabs } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ProfileApi } from '../../contract';
import { AddressesView } from '../components/AddressesView';
import { memberQueryKey } from '../components/keys';
import { MemberDetails } from '../components/MemberDetails';
import * as css from '../components/profile.css';

/** /member: My Profile (detail, then edit, then save or cancel) and the addresses sub-view. */
export default function ProfilePage() {
  const { t } = useTranslation('profile');
  const api = useApi();
  const member = useQuery({
    queryKey: memberQueryKey,
    queryFn: () => api.call(ProfileApi.loadOwn, undefined, { notify: false }),
    retry: false,
  });
  if (member.isPending) return <p aria-busy="true">{t('loading')}</p>;
  if (member.isError) {
    const noProfile = member.error instanceof ApiCallError && member.error.status === 404;
    return <Message kind={noProfile ? 'info' : 'error'}>{noProfile ? t('noProfile') : t('loadError')}</Message>;
  }
  return (
    <div className={css.stack}>
      <Tabs
        aria-label={t('tabs.label')}
        items={[
          { id: 'details', label: t('tabs.details'), content: <MemberDetails member={member.data} /> },
          { id: 'addresses', label: t('tabs.addresses'), content: <AddressesView memberId={member.data.MemberID} /> },
        ]}
      />
    </div>
  );
}
