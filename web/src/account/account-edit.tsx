import { type UseMutationResult, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type AccountSettings, type AccountUpdate, fetchAccount } from '../api/account.ts';
import { ApiError } from '../api/client.ts';
import { fetchQuietHours } from '../api/quiet-hours.ts';
import {
  type ConflictField,
  type ConflictStage,
  changedElsewhere,
  EditConflictNotice,
} from '../forms/edit-conflict.tsx';
import { useUpdateAccount } from '../hooks/use-account.ts';
import { useSaveQuietHours } from '../hooks/use-quiet-hours.ts';
import { queryKeys } from '../query-keys.ts';

type Values = Record<string, unknown>;
type Versioned = { revision: number };

/**
 * The account's settings share one revision, and the account page has several forms. A save this
 * tab made from revision N to N+1 is its own: another form still holding N may follow it to N+1,
 * so saving the name and then the time zone is no conflict. Another tab's save is not in here.
 */
const ownSaves = new Map<number, number>();
function latestOwn(revision: number): number {
  let current = revision;
  for (let next = ownSaves.get(current); next !== undefined; next = ownSaves.get(current)) current = next;
  return current;
}

/**
 * A form's save carrying the revision it started from (docs/product.md#edit-conflicts). A save
 * refused because another tab saved first shows what changed there; loading the saved version
 * keeps what was typed listed, to be put back. `pick` reads the form's fields from a read,
 * `apply` puts values into the form.
 */
function useVersionedEdit<Read extends Versioned, Change, Form extends Values>({
  read,
  pick,
  apply,
  mutation,
  load,
}: {
  read: Read;
  pick: (read: Read) => Form;
  apply: (values: Partial<Form>) => void;
  mutation: UseMutationResult<Read, Error, Change & { revision: number }>;
  load: () => Promise<Read>;
}) {
  const [base, setBase] = useState(() => ({ revision: read.revision, values: pick(read) }));
  const [conflict, setConflict] = useState<{
    fields: ConflictField[];
    mine: Form;
    started: Form;
    stage: ConflictStage;
  }>();
  const [reloading, setReloading] = useState(false);

  const save = (
    change: Change,
    mine: Form,
    options: { onSuccess?: (saved: Read) => void; onSettled?: () => void } = {},
  ) => {
    const revision = latestOwn(base.revision);
    mutation.mutate(
      { ...change, revision },
      {
        onSuccess: (saved) => {
          ownSaves.set(revision, saved.revision);
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
  };

  const reload = async () => {
    setReloading(true);
    try {
      const latest = await load();
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
  const conflicted = mutation.error instanceof ApiError && mutation.error.code === 'edit_conflict';
  return { update: mutation, save, notice, conflicted, base: base.values };
}

/** An account settings form (name; time zone, language and currency) saved through /api/account/update. */
export function useAccountEdit<Form extends Values>(
  account: AccountSettings,
  pick: (account: AccountSettings) => Form,
  apply: (values: Partial<Form>) => void,
) {
  const queryClient = useQueryClient();
  return useVersionedEdit<AccountSettings, AccountUpdate, Form>({
    read: account,
    pick,
    apply,
    mutation: useUpdateAccount() as UseMutationResult<
      AccountSettings,
      Error,
      AccountUpdate & { revision: number }
    >,
    load: () =>
      queryClient.fetchQuery({
        queryKey: queryKeys.account,
        queryFn: ({ signal }) => fetchAccount(signal),
        staleTime: 0,
      }),
  });
}

/** The account's quiet hours form; they share the account settings' revision. */
export function useQuietHoursEdit<Read extends Versioned, Form extends Values>(
  stored: Read,
  pick: (read: Read) => Form,
  apply: (values: Partial<Form>) => void,
) {
  const queryClient = useQueryClient();
  return useVersionedEdit<Read, Form, Form>({
    read: stored,
    pick,
    apply,
    mutation: useSaveQuietHours() as unknown as UseMutationResult<Read, Error, Form & { revision: number }>,
    load: () =>
      queryClient.fetchQuery({
        queryKey: queryKeys.quietHours,
        queryFn: ({ signal }) => fetchQuietHours(signal),
        staleTime: 0,
      }) as unknown as Promise<Read>,
  });
}
