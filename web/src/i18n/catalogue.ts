import { PLAN_NAMES } from '@mimamori/plans';
import coreEn from './en.json';
import accountDataEn from './features/accountData.en.json';
import accountDataJa from './features/accountData.ja.json';
import apiAccessEn from './features/apiAccess.en.json';
import apiAccessJa from './features/apiAccess.ja.json';
import auditLogEn from './features/auditLog.en.json';
import auditLogJa from './features/auditLog.ja.json';
import billingEn from './features/billing.en.json';
import billingJa from './features/billing.ja.json';
import chatLinksEn from './features/chatLinks.en.json';
import chatLinksJa from './features/chatLinks.ja.json';
import dashboardEn from './features/dashboard.en.json';
import dashboardJa from './features/dashboard.ja.json';
import editConflictEn from './features/editConflict.en.json';
import editConflictJa from './features/editConflict.ja.json';
import accountDataErrorsEn from './features/errors-account-data.en.json';
import accountDataErrorsJa from './features/errors-account-data.ja.json';
import apiAccessErrorsEn from './features/errors-api-access.en.json';
import apiAccessErrorsJa from './features/errors-api-access.ja.json';
import auditErrorsEn from './features/errors-audit.en.json';
import auditErrorsJa from './features/errors-audit.ja.json';
import billingErrorsEn from './features/errors-billing.en.json';
import billingErrorsJa from './features/errors-billing.ja.json';
import chatLinkErrorsEn from './features/errors-chat-link.en.json';
import chatLinkErrorsJa from './features/errors-chat-link.ja.json';
import checkErrorsEn from './features/errors-check.en.json';
import checkErrorsJa from './features/errors-check.ja.json';
import quietHoursErrorsEn from './features/errors-quiet-hours.en.json';
import quietHoursErrorsJa from './features/errors-quiet-hours.ja.json';
import receiptErrorsEn from './features/errors-receipts.en.json';
import receiptErrorsJa from './features/errors-receipts.ja.json';
import securityErrorsEn from './features/errors-security.en.json';
import securityErrorsJa from './features/errors-security.ja.json';
import targetErrorsEn from './features/errors-target.en.json';
import targetErrorsJa from './features/errors-target.ja.json';
import webhookErrorsEn from './features/errors-webhook.en.json';
import webhookErrorsJa from './features/errors-webhook.ja.json';
import workspaceErrorsEn from './features/errors-workspace.en.json';
import workspaceErrorsJa from './features/errors-workspace.ja.json';
import filingsEn from './features/filings.en.json';
import filingsJa from './features/filings.ja.json';
import landingEn from './features/landing.en.json';
import landingJa from './features/landing.ja.json';
import legalEn from './features/legal.en.json';
import legalJa from './features/legal.ja.json';
import mockShopEn from './features/mockShop.en.json';
import mockShopJa from './features/mockShop.ja.json';
import quietHoursEn from './features/quietHours.en.json';
import quietHoursJa from './features/quietHours.ja.json';
import receiptsEn from './features/receipts.en.json';
import receiptsJa from './features/receipts.ja.json';
import securityEn from './features/security.en.json';
import securityJa from './features/security.ja.json';
import siteDetailEn from './features/siteDetail.en.json';
import siteDetailJa from './features/siteDetail.ja.json';
import tourEn from './features/tour.en.json';
import tourJa from './features/tour.ja.json';
import webhooksEn from './features/webhooks.en.json';
import webhooksJa from './features/webhooks.ja.json';
import wizardEn from './features/wizard.en.json';
import wizardJa from './features/wizard.ja.json';
import workspacesEn from './features/workspaces.en.json';
import workspacesJa from './features/workspaces.ja.json';
import coreJa from './ja.json';

/*
 * One catalogue per language, assembled from the shell's file and one file per screen, so each
 * screen's texts live beside each other. API error keys (`errors.<code>`) stay in one `errors`
 * group whatever file defines them, because the gateway sends them as `errors.<code>`. Plan names
 * come from the plan catalogue (`@mimamori/plans`), which the mails name plans from too.
 */
export const ja = {
  ...coreJa,
  plans: { ...coreJa.plans, ...PLAN_NAMES.ja },
  errors: {
    ...coreJa.errors,
    ...targetErrorsJa,
    ...checkErrorsJa,
    ...webhookErrorsJa,
    ...billingErrorsJa,
    ...apiAccessErrorsJa,
    ...chatLinkErrorsJa,
    ...receiptErrorsJa,
    ...accountDataErrorsJa,
    ...quietHoursErrorsJa,
    ...auditErrorsJa,
    ...workspaceErrorsJa,
    ...securityErrorsJa,
  },
  dashboard: { ...dashboardJa, filings: filingsJa },
  wizard: wizardJa,
  siteDetail: siteDetailJa,
  mockShop: mockShopJa,
  tour: tourJa,
  webhooks: webhooksJa,
  chatLinks: chatLinksJa,
  quietHours: quietHoursJa,
  apiAccess: apiAccessJa,
  billing: billingJa,
  landing: landingJa,
  legal: legalJa,
  receipts: receiptsJa,
  accountData: accountDataJa,
  auditLog: auditLogJa,
  editConflict: editConflictJa,
  workspaces: workspacesJa,
  security: securityJa,
};

// English must carry every key the Japanese catalogue has; tsc fails on a missing one.
export const en: typeof ja = {
  ...coreEn,
  plans: { ...coreEn.plans, ...PLAN_NAMES.en },
  errors: {
    ...coreEn.errors,
    ...targetErrorsEn,
    ...checkErrorsEn,
    ...webhookErrorsEn,
    ...billingErrorsEn,
    ...apiAccessErrorsEn,
    ...chatLinkErrorsEn,
    ...receiptErrorsEn,
    ...accountDataErrorsEn,
    ...quietHoursErrorsEn,
    ...auditErrorsEn,
    ...workspaceErrorsEn,
    ...securityErrorsEn,
  },
  dashboard: { ...dashboardEn, filings: filingsEn },
  wizard: wizardEn,
  siteDetail: siteDetailEn,
  mockShop: mockShopEn,
  tour: tourEn,
  webhooks: webhooksEn,
  chatLinks: chatLinksEn,
  quietHours: quietHoursEn,
  apiAccess: apiAccessEn,
  billing: billingEn,
  landing: landingEn,
  legal: legalEn,
  receipts: receiptsEn,
  accountData: accountDataEn,
  auditLog: auditLogEn,
  editConflict: editConflictEn,
  workspaces: workspacesEn,
  security: securityEn,
};

export type Catalogue = typeof ja;
