import { layoutCss } from '@portal/web';
import { TransactionsGrid } from '../components/TransactionsGrid';

/** /support-pendingtransactions: pending charges, with Charge and Decline. */
export default function PendingTransactionsPage() {
  return (
    <div className={layoutCss.card}>
      <TransactionsGrid mode="pending" />
    </div>
  );
}
