import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type AccountSettings, type AccountUpdate, fetchAccount } from '../api/account.ts';
import { ApiError } from '../api/client.ts';
import {
  type ConflictField,
  type ConflictStage,
  changedElsewhere,
  EditConflictNotice,
} from '../forms/edit-conflict.tsx';
import { useUpdateAccount } from '../hooks/use-account.ts';
import { queryKeys } from '../query-keys.ts';

type Values = Record<string, unknown>;

/**
 * An account settings form's save, carrying the revision the form started from
 * (docs/product.md#edit-conflicts). A save refused because another tab saved first shows what
 * changed there; loading the saved version keeps what was typed listed, to be put back.
 * `pick` reads the form's fields from the account, `apply` puts values into the form.
 */
export function useAccountEdit<Form extends Values>(
  account: AccountSettings,
  pick: (account: AccountSettings) => Form,
  apply: (values: Partial<Form>) => void,
) {
  const update = useUpdateAccount();
  const queryClient = useQueryClient();
  const [base, setBase] = useState(() => ({ revision: account.revision, values: pick(account) }));
  const [conflict, setConflict] = useState<{
    fields: ConflictField[];
    mine: Form;
    started: Form;
    stage: ConflictStage;
  }>();
  const [reloading, setReloading] = useState(false);

  const save = (
    change: AccountUpdate,
    mine: Form,
    options: { onSuccess?: (saved: AccountSettings) => void; onSettled?: () => void } = {},
  ) =>
    update.mutate(
      { ...change, revision: base.revision },
      {
        onSuccess: (saved) => {
          setBase({ revision: saved.revision, values: pick(saved) });
          setConflict(undefined);
          options.onSuccess?.(saved);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.conflict)
            setConflict({
              fields: changedElsewhere(error.conflict.changed, base.values, mine),
              mine,
              started: base.values,
              stage: 'open',
            });
        },
        ...(options.onSettled ? { onSettled: options.onSettled } : {}),
      },
    );

  const reload = async () => {
    setReloading(true);
    try {
      const latest = await queryClient.fetchQuery({
        queryKey: queryKeys.account,
        queryFn: ({ signal }) => fetchAccount(signal),
        staleTime: 0,
      });
      setBase({ revision: latest.revision, values: pick(latest) });
      apply(pick(latest));
      setConflict((current) => current && { ...current, stage: 'reloaded' });
    } finally {
      setReloading(false);
    }
  };

  // Only what this form changed goes back: a field the person never touched keeps the saved value.
  const reapply = () => {
    if (!conflict) return;
    const typed = Object.keys(conflict.mine).filter(
      (key) => JSON.stringify(conflict.mine[key]) !== JSON.stringify(conflict.started[key]),
    );
    apply(Object.fromEntries(typed.map((key) => [key, conflict.mine[key]])) as Partial<Form>);
    setConflict({ ...conflict, stage: 'reapplied' });
  };

  const notice = conflict ? (
    <EditConflictNotice
      fields={conflict.fields}
      stage={conflict.stage}
      busy={reloading}
      onReload={() => void reload()}
      onReapply={reapply}
    />
  ) : null;
  const conflicted = update.error instanceof ApiError && update.error.code === 'edit_conflict';
  return { update, save, notice, conflicted, base: base.values };
}
