import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type Billing,
  cancelBookedChange,
  cancelSubscription,
  changePlan,
  confirmCard,
  createSetupIntent,
  fetchBilling,
  fetchPlans,
  type PlanChoice,
  previewPlanChange,
  reprocess,
  requestProjectPlan,
  undoCancel,
} from '../api/billing.ts';
import { ApiError } from '../api/client.ts';
import { queryKeys } from '../query-keys.ts';

export function useBilling() {
  return useQuery({
    queryKey: queryKeys.billing,
    queryFn: ({ signal }) => fetchBilling(signal),
    // An installation without payments answers 503 billing_off, which asking again will not change.
    retry: (failures, error) =>
      !(
        error instanceof ApiError &&
        (error.code === 'billing_off' || (error.status >= 400 && error.status < 500))
      ) && failures < 2,
  });
}

/** Prices change only with a deployment, so one fetch per visit is enough. */
export function usePlans() {
  return useQuery({
    queryKey: queryKeys.plans,
    queryFn: ({ signal }) => fetchPlans(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** What changing to `choice` now would charge; asked only while the form shows a change made now. */
export function usePlanChangePreview(choice: PlanChoice, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.planChangePreview(choice),
    queryFn: ({ signal }) => previewPlanChange(choice, signal),
    enabled,
    retry: false,
  });
}

/**
 * A billing change answered with the billing record: it becomes the cached one at once, and
 * user_info (status, has_pi, quotas) and the account (plan, cycle) are fetched again.
 */
function useBillingChange<Input>(change: (input: Input) => Promise<Billing>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async (billing) => {
      queryClient.setQueryData(queryKeys.billing, billing);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.userInfo }),
        queryClient.invalidateQueries({ queryKey: queryKeys.account }),
      ]);
    },
  });
}

export const useCreateSetupIntent = () => useMutation({ mutationFn: createSetupIntent });
export const useConfirmCard = () => useBillingChange(confirmCard);
export const useChangePlan = () => useBillingChange(changePlan);
export const useCancelBookedChange = () => useBillingChange(() => cancelBookedChange());
export const useCancelSubscription = () => useBillingChange(cancelSubscription);
export const useUndoCancel = () => useBillingChange(() => undoCancel());
export const useReprocess = () =>
  useBillingChange(async () => {
    const answer = await reprocess();
    // A payment declined again is not a failed call, but the user must hear it.
    if (!answer.paid) throw new ReprocessDeclined(answer.billing);
    return answer.billing;
  });
export const useRequestProjectPlan = () => useMutation({ mutationFn: requestProjectPlan });

/** Reprocess reached the provider, which declined the card again. */
export class ReprocessDeclined extends Error {
  readonly billing: Billing;
  constructor(billing: Billing) {
    super('payment declined');
    this.billing = billing;
  }
}
