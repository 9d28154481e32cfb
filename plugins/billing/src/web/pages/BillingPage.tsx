import { layoutCss } from '@portal/web';
import * as css from '../components/billing.css';
import { CardsSection } from '../components/CardsSection';
import { SubscriptionSection } from '../components/SubscriptionSection';

/** The billing page: the subscription and the cards with the embedded card form. */
export default function BillingPage() {
  return (
    <div className={layoutCss.card}>
      <div className={css.stack}>
        <SubscriptionSection />
        <CardsSection />
      </div>
    </div>
  );
}
