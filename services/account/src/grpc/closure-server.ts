import type { closureV1 } from '@mimamori/contracts';
import { unaryHandler } from '@mimamori/service-host';
import type { AccountDeps } from '../domain/account-deps.ts';
import { AccountProblem } from '../domain/account-problem.ts';
import { isApiTokenShaped } from '../domain/api-access.ts';
import { type ClosurePort, deleteOwnAccount } from '../domain/closure/account-closure.ts';
import { requireUser } from '../domain/sessions.ts';
import { answering } from './problem-status.ts';

/** Closing the account over gRPC; the browser's session only, never an API token. */
export function closureServer(
  deps: Pick<AccountDeps, 'accounts' | 'clock' | 'passwords'> & {
    closure: ClosurePort;
    purgeGraceMs: number;
  },
): closureV1.AccountClosureServiceServer {
  return {
    deleteAccount: unaryHandler((request: closureV1.DeleteAccountRequest) =>
      answering(async () => {
        if (isApiTokenShaped(request.sessionToken)) throw new AccountProblem('forbidden', 'session_required');
        const userId = await requireUser(request.sessionToken, deps);
        const { purgeAt } = await deleteOwnAccount(
          userId,
          { password: request.password, confirmation: request.confirmation },
          deps,
        );
        return { purgeAt };
      }),
    ),
  };
}
