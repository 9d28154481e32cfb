import { layoutCss } from '@portal/web';
import { CardsSection } from '../components/CardsSection';

/** Payment Methods (/payment, /payment/cards): the member's cards and the hosted card form. */
export default function PaymentPage() {
  return (
    <div className={layoutCss.card}>
      <CardsSection />
    </div>
  );
}
