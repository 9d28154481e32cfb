import { useApi } from '@portal/web';
import { Message } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { AccountApi } from '../../contract';
import { LinkFrame } from '../components/LinkFrame';

/** /login/confirm-email/:urlId: the link mailed to a new address confirms the e-mail change (no session needed). */
export default function ConfirmEmailPage() {
  const { t } = useTranslation('account');
  const api = useApi();
  const { urlId = '' } = useParams();
  // The link is spent by the call: one request per page view, never retried.
  const result = useQuery({
    queryKey: ['account', 'confirm-email', urlId],
    queryFn: () => api.call(AccountApi.confirmEmail, { body: { UrlId: urlId } }, { notify: false }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <LinkFrame title={t('email.confirmTitle')}>
      {result.isPending && <p aria-busy="true">{t('common.loading')}</p>}
      {result.isSuccess && <Message kind="success">{t('email.confirmed', { email: result.data.Email })}</Message>}
      {result.isError && <Message kind="error">{result.error.message || t('email.invalid')}</Message>}
      <p>
        <Link to="/login">{t('email.toLogin')}</Link>
      </p>
    </LinkFrame>
  );
}
