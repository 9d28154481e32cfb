import { layoutCss } from '@portal/web';
import { TransactionsGrid } from '../components/TransactionsGrid';

/** /support-transactions: every member's charges, Declined first by default. */
export default function TransactionsPage() {
  return (
    <div className={layoutCss.card}>
      <TransactionsGrid mode="all" />
    </div>
  );
}
