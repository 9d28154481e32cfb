import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { supportCardPath } from '../../access';
import * as css from './billing.css';
import { SupportCards } from './SupportCards';

/** The details-card tab of /users/:id: the member's payment profiles, and the card screen with the hosted form. */
export default function MemberCardTab({ memberId }: { memberId: number }) {
  const { t } = useTranslation('billing');
  return (
    <div className={css.stack}>
      <SupportCards memberId={memberId} />
      <Link to={supportCardPath(memberId)} reloadDocument>
        {t('support.manageCards')}
      </Link>
    </div>
  );
}
