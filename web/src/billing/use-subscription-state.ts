import { useBilling } from '../hooks/use-billing.ts';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { type SubscriptionState, subscriptionState } from './subscription-state.ts';

/**
 * The account's subscription state for the screen (docs/product.md#subscription): user_info, and
 * billing's record once it has loaded (a booked cancellation and the period's end are only there;
 * an installation without payments never has it).
 */
export function useSubscriptionState(): SubscriptionState | null {
  const info = useUserInfo().data;
  const billing = useBilling().data;
  if (!info) return null;
  // Days left count on billing's clock; the browser's may be wrong.
  return subscriptionState({ info, billing, now: billing ? new Date(billing.at) : new Date() });
}
