import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchInvoices, saveInvoiceRecipient } from '../api/invoices.ts';
import { queryKeys } from '../query-keys.ts';

export function useInvoices() {
  return useQuery({ queryKey: queryKeys.invoices, queryFn: ({ signal }) => fetchInvoices(signal) });
}

/** A saved name changes the list's recipient and revision; a refused one leaves them. */
export function useSaveInvoiceRecipient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveInvoiceRecipient,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.invoices }),
  });
}
