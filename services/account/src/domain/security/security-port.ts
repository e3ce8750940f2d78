/** One session of the account as the session list shows it. */
export interface SessionView {
  id: string;
  userAgent: string;
  clientAddress: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** The session the request came with. */
  current: boolean;
}

export interface TotpFactor {
  sealedSecret: string;
  confirmed: boolean;
  /** The newest 30-second step a code was accepted for (0: none yet). */
  lastStep: number;
}

export interface PasskeyRecord {
  id: string;
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type PendingPurpose = 'second_factor' | 'passkey_register' | 'passkey_sign_in';

export interface PendingSignIn {
  userId: string | null;
  purpose: PendingPurpose;
  challenge: string;
  failures: number;
}

/** Storage of the second factors, the pending sign-ins, the session list and the known devices. */
export interface SecurityPort {
  totp(userId: string): Promise<TotpFactor | null>;
  /** A new unconfirmed secret in place of any unconfirmed one; refused (false) when one is confirmed. */
  startTotp(userId: string, sealedSecret: string, now: Date): Promise<boolean>;
  /** Confirms the factor and stores these recovery code hashes in place of any others. */
  confirmTotp(userId: string, step: number, recoveryHashes: string[], now: Date): Promise<void>;
  /** Records the step as used unless an equal or newer one was: false when the code was already used. */
  useTotpStep(userId: string, step: number): Promise<boolean>;
  /** Removes the TOTP factor and the recovery codes. */
  removeTotp(userId: string): Promise<void>;
  replaceRecoveryCodes(userId: string, recoveryHashes: string[]): Promise<void>;
  /** Marks the code used; false when there is no such unused code. */
  useRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean>;
  recoveryCodesLeft(userId: string): Promise<number>;

  passkeys(userId: string): Promise<PasskeyRecord[]>;
  passkeyByCredential(credentialId: string): Promise<(PasskeyRecord & { userId: string }) | null>;
  addPasskey(userId: string, passkey: PasskeyRecord): Promise<void>;
  usePasskey(id: string, counter: number, now: Date): Promise<void>;
  /** false when the user has no such passkey. */
  removePasskey(userId: string, id: string): Promise<boolean>;

  createPending(
    ticketHash: string,
    pending: { userId: string | null; purpose: PendingPurpose; challenge: string; expiresAt: Date },
  ): Promise<void>;
  pending(ticketHash: string, purpose: PendingPurpose, now: Date): Promise<PendingSignIn | null>;
  /** Counts a wrong code against the ticket; the count after it. */
  failPending(ticketHash: string): Promise<number>;
  deletePending(ticketHash: string): Promise<void>;

  sessions(userId: string, currentHash: string, now: Date): Promise<SessionView[]>;
  describeSession(
    tokenHash: string,
    client: { userAgent: string; clientAddress: string },
    now: Date,
  ): Promise<void>;
  /** false when the user has no such session. */
  endSession(userId: string, id: string): Promise<boolean>;
  endOtherSessions(userId: string, keepHash: string): Promise<number>;

  /** Records the device for the user: `new` the first time, `first` when the user had none before. */
  rememberDevice(userId: string, deviceHash: string, now: Date): Promise<'known' | 'new' | 'first'>;
}
