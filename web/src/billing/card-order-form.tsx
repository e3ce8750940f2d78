import type { Billing } from '../api/billing.ts';
import { usePlans } from '../hooks/use-billing.ts';
import { CardForm } from './card-form.tsx';
import { OrderConfirmation } from './order-confirmation.tsx';
import { cardOrder } from './orders.ts';

/** The card form, with the final confirmation above it when saving the card places a paid order. */
export function CardOrderForm({ billing, onDone }: { billing: Billing; onDone: (billing: Billing) => void }) {
  const plans = usePlans();
  const order = cardOrder(billing, plans.data);
  return (
    <>
      {order && <OrderConfirmation order={order} />}
      <CardForm billing={billing} onDone={onDone} order={order !== null} />
    </>
  );
}
