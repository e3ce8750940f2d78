/** The SPA's routes (docs/product.md#screens), in history mode. */
export const routePaths = {
  dashboard: '/',
  account: '/account',
  /** The workspace's audit log; query `person`, `kind`, `subject`, `from`, `until`, `page`. */
  auditLog: '/audit',
  /** Two-factor sign-in, passkeys and the session list. */
  security: '/security',
  newCard: '/newcard',
  planChange: '/planchange',
  cancel: '/cancel',
  /** Version 2 site detail; query `id`. */
  targetDetail: '/target2',
  /** Version 1 site history; query `id`. */
  siteHistory: '/history',
  targetRegistrationColumns: '/sr2c',
  targetRegistrationMobile: '/sr2m',
  signup: '/signup',
  signin: '/signin',
  resetPassword: '/reset_pass',
  verifyEmail: '/verify',
  chatLinkComplete: '/linecomplete',
  supportRequest: '/req_support',
  mockShop: '/mock/ec',
  /** 特定商取引法に基づく表記, the privacy policy and the terms: public, linked from every payment screen. */
  legalCommerce: '/legal/commerce',
  legalPrivacy: '/legal/privacy',
  legalTerms: '/legal/terms',
  /** After the account was deleted; query `until` (when everything is erased). */
  accountDeleted: '/goodbye',
  /** The current workspace's members and invitations (docs/product.md#workspaces). */
  members: '/members',
  /** A mailed invitation's link; query `token`. */
  invitation: '/invitation',
} as const;
