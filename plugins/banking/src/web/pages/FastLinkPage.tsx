import { hasAnyRole } from '@portal/core';
import { layoutCss, useRoles } from '@portal/web';
import { Message } from '@portal/web/kit';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BANK_CONSTANTS, BankingAccess, BankingPaths } from '../../access';
import * as css from '../components/bank.css';
import { useSyncOnFrameLink } from '../components/frameLinked';
import { LinkingFrame } from '../components/LinkingFrame';
import { useFrameDocument } from '../components/useFrameDocument';
import { useLinkToken } from '../components/useLinkToken';

function Frame() {
  const { t } = useTranslation('banking');
  const frame = useLinkToken();
  // The hosted page reports a link to this page only: the server is told to mirror it.
  useSyncOnFrameLink(typeof frame === 'string' ? null : frame);
  if (frame === 'loading') return <p aria-busy="true">{t('fastlink.loading')}</p>;
  if (frame === 'failed') return <Message kind="error">{t('fastlink.failed')}</Message>;
  return (
    <LinkingFrame frame={frame} title={t('fastlink.frameTitle')} className={css.frame} height={BANK_CONSTANTS.frameHeightPx} data-testid="fastlink-frame" />
  );
}

/** /management/bank-fastlink: the aggregator's hosted linking page in a frame 825 px high. */
export default function FastLinkPage() {
  const { t } = useTranslation('banking');
  const canFrame = useFrameDocument();
  // The linked-banks page is CareGuard's and SuperUser's (spec 01 section 2): a finance user is not offered it.
  const seesBanks = hasAnyRole(useRoles(), BankingAccess.pages);
  return (
    <div className={layoutCss.card}>
      <div className={css.stack}>
        <p>{t('fastlink.intro')}</p>
        {seesBanks && (
          <p>
            <Link to={BankingPaths.banks}>{t('fastlink.banks')}</Link>
          </p>
        )}
        {canFrame ? <Frame /> : <p aria-busy="true">{t('fastlink.loading')}</p>}
      </div>
    </div>
  );
}
