import type { AccountPort } from './account-port.ts';
import type { Clock } from './clock.ts';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** What the account use cases share: storage, time, password hashing and ids. */
export interface AccountDeps {
  accounts: AccountPort;
  clock: Clock;
  passwords: PasswordHasher;
  newId(): string;
}
