import { useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { accountBalanceQuery } from './balanceQuery';
import { day, money } from './format';
import * as css from './ledger.css';
import { useMemberLedger } from './useDelayed';
import { WidgetState, widgetQueryState } from './WidgetState';

/** Dashboard widget: the set-aside's current balance. */
export default function AccountBalanceWidget() {
  const { t } = useTranslation('ledger');
  const api = useApi();
  const { ready } = useMemberLedger();
  const q = useQuery({ ...accountBalanceQuery(api), enabled: ready });
  if (!q.data) return <WidgetState {...widgetQueryState(q)} what="balance" />;
  return (
    <div data-testid="ledger-balance-widget">
      <p className={css.big}>{q.data.Balance === null ? t('balance.none') : money(q.data.Balance)}</p>
      <p className={css.muted}>{t('widget.asOf', { date: day(q.data.AsOf) })}</p>
    </div>
  );
}
