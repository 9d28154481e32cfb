import { useTranslation } from 'react-i18next';
import { ContactsGrid } from './ContactsGrid';

/** A member's contacts on the support screens' member detail (read only; staff edit them while acting for the member). */
export default function MemberContactsTab({ memberId }: { memberId: number }) {
  const { t } = useTranslation('contacts');
  return <ContactsGrid label={t('memberTab.label', { memberId })} memberId={memberId} />;
}
