import { status } from '@grpc/grpc-js';
import { accountV1 } from '@mimamori/contracts';

/**
 * The runtime's tests use AccountService as their sample API and exercise only a few of its
 * methods; the others answer UNIMPLEMENTED, so the server's every-method check still passes.
 */
export function accountServiceWith(
  methods: Partial<accountV1.AccountServiceServer>,
): accountV1.AccountServiceServer {
  const unused = Object.fromEntries(
    Object.keys(accountV1.AccountServiceService).map((name) => [
      name,
      (_call: unknown, callback: (error: { code: number }) => void) =>
        callback({ code: status.UNIMPLEMENTED }),
    ]),
  );
  return { ...unused, ...methods } as accountV1.AccountServiceServer;
}
