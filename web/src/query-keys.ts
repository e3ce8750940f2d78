/** Every react-query key of the SPA, so invalidation and prefetching name the same thing. */
export const queryKeys = {
  userInfo: ['user-info'] as const,
  /** The current workspace's members and invitations; the person's workspaces. */
  members: ['members'] as const,
  workspaces: ['workspaces'] as const,
  account: ['account'] as const,
  storageUsed: ['storage-used'] as const,
  timezones: ['timezones'] as const,
  billing: ['billing'] as const,
  plans: ['plans'] as const,
  /** The account's invoices (receipts) and the recipient name they are made out to. */
  invoices: ['billing', 'invoices'] as const,
  /** The seller's legal details (the legal pages). */
  operator: ['operator'] as const,
  /** What changing to a plan choice now would charge; under billing, so a billing change drops it. */
  planChangePreview: (choice: object) => ['billing', 'plan-preview', choice] as const,
  targetList: ['site-list'] as const,
  xSignInAvailable: ['x-sign-in-available'] as const,
  /** The account's signed webhooks, account-wide and per site. */
  webhooks: ['webhooks'] as const,
  /** The account's chat links (Slack, Teams, LINE, Chatwork, Telegram), account-wide and per site. */
  chatLinks: ['chat-links'] as const,
  /** The account's API tokens, and its secret feed URLs. */
  apiTokens: ['api-tokens'] as const,
  feedUrls: ['feed-urls'] as const,
  /** The account's quiet hours (docs/product.md#quiet-hours). */
  quietHours: ['quiet-hours'] as const,
  /** One page of the workspace's audit log for a filter. */
  auditLog: (query: object) => ['audit-log', query] as const,
  /** Two-factor sign-in as set, and the sign-in sessions (docs/product.md#two-factor-sign-in). */
  security: ['security'] as const,
  sessions: ['security', 'sessions'] as const,
  /** A verification link is used once; its outcome is kept under its token. */
  emailVerification: (token: string) => ['email-verification', token] as const,
  supportFollowUp: (token: string) => ['support-follow-up', token] as const,
  /** A rule's regular expression as Register's RE2 check judges it (docs/product.md#rules). */
  patternCheck: (pattern: string) => ['pattern-check', pattern] as const,
  /** A v2 site's stored settings, edited by the registration wizard. */
  targetSettings: (id: string) => ['target-settings', id] as const,
  /** Every area read from a wizard preview, so the wizard can wait for the ones under way. */
  previewAreas: ['preview-area'] as const,
  /** A document read with the wizard's candidate areas (docs/product.md#documents-and-data). */
  documentAreas: (input: object) => ['preview-area', 'document', input] as const,
  /** An area read from a wizard preview session with the given options. */
  previewArea: (sessionId: string, area: object, options: object) =>
    ['preview-area', sessionId, area, options] as const,
  /** Every page of one site's history sits under this prefix, so an action refreshes them all. */
  siteHistory: (version: number, id: string) => ['site-history', version, id] as const,
  targetHistoryPage: (version: number, id: string, page: object) =>
    ['site-history', version, id, page] as const,
  registrationData: (version: number, id: string) => ['registration-data', version, id] as const,
  /** Where filings come from: the real sources switched on, or the demo. */
  filingsSources: ['filings-sources'] as const,
  /** A filings search: `kind` is the path's first part (tdedi, cik, isin). */
  filingsSearch: (kind: string, query: string) => ['filings-search', kind, query] as const,
};
