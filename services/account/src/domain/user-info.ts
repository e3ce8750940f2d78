/** The account as user_info shows it (spec section 3); quotas and billing fill in later. */
export interface AccountView {
  id: string;
  email: string;
  lang: string;
  timezone: string | null;
  currency: string;
}

export interface SessionReader {
  /** The account a live (unexpired) session belongs to. */
  findAccountBySessionTokenHash(tokenHash: string, now: Date): Promise<AccountView | null>;
}
