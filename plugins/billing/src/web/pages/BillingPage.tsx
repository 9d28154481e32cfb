import { layoutCss } from '@portal/web';
import * as css from '../components/billing.css';
import { CardsSection } from '../components/CardsSection';
import { PaymentsSection } from '../components/PaymentsSection';
import { SubscriptionSection } from '../components/SubscriptionSection';

/** The billing page: the subscription, the cards with the embedded card form, and the payments made with them. */
export default function BillingPage() {
  return (
    <div className={layoutCss.card}>
      <div className={css.stack}>
        <SubscriptionSection />
        <CardsSection />
        <PaymentsSection />
      </div>
    </div>
  );
}
