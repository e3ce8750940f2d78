import type { WorkspaceRoleName } from '@mimamori/http-api';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AccountSection } from '../account/account-section.tsx';
import { DiscordSection } from '../account/discord-section.tsx';
import { DisplaySettingsForm } from '../account/display-settings-form.tsx';
import { MailsSection } from '../account/mails-section.tsx';
import { PasswordSection } from '../account/password-section.tsx';
import { ProfileSection } from '../account/profile-section.tsx';
import { QuietHoursSection } from '../account/quiet-hours-section.tsx';
import { StorageSection } from '../account/storage-section.tsx';
import { SubscriptionSection } from '../account/subscription-section.tsx';
import { SupportSection } from '../account/support-section.tsx';
import { DeleteAccountForm } from '../account-data/delete-account-form.tsx';
import { ExportButton } from '../account-data/export-button.tsx';
import { ApiTokensPanel } from '../api-access/api-tokens-panel.tsx';
import { FeedsPanel } from '../api-access/feeds-panel.tsx';
import { ChatLinksSection } from '../chat-links/chat-links-section.tsx';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useAccount } from '../hooks/use-account.ts';
import { ReceiptsPanel } from '../receipts/receipts-panel.tsx';
import { routePaths } from '../route-paths.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { Page } from '../shell/page.tsx';
import { WebhooksPanel } from '../webhooks/webhooks-panel.tsx';
import { roleAllows, useRole } from '../workspaces/use-role.ts';

export default function AccountPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const account = useAccount();
  const role = useRole();

  if (account.isPending) {
    return (
      <Page title="account">
        <LoadingIndicator />
      </Page>
    );
  }
  if (account.isError) {
    return (
      <Page title="account">
        <div className="notice">
          <FormMessage tone="error" message={errorText(account.error)} />
          <button type="button" className="button" onClick={() => void account.refetch()}>
            {t('actions.retry')}
          </button>
        </div>
      </Page>
    );
  }
  const data = account.data;
  if (role && role !== 'owner') return <MemberAccountPage account={data} role={role} />;
  return (
    <Page title="account">
      <div className="account-grid">
        <ProfileSection account={data} />
        <PasswordSection hasPassword={data.has_password} />
        <AccountSection id="security" title={t('pages.security')}>
          <p className="lead">{t('security.accountLinkLead')}</p>
          <Link className="button" to={routePaths.security}>
            {t('security.accountLink')}
          </Link>
        </AccountSection>
        <SubscriptionSection account={data} />
        <AccountSection id="settings" title={t('account.settings')}>
          <DisplaySettingsForm account={data} />
        </AccountSection>
        <AccountSection id="receipts" title={t('receipts.title')}>
          <ReceiptsPanel timeZone={data.timezone} />
        </AccountSection>
        <MailsSection mails={data.mails} />
        <DiscordSection state={data.discord_state} />
        <ChatLinksSection />
        <QuietHoursSection account={data} />
        <AccountSection id="webhooks" title={t('webhooks.title')}>
          <WebhooksPanel targetId="" />
        </AccountSection>
        <AccountSection id="api-tokens" title={t('apiAccess.tokensTitle')}>
          <ApiTokensPanel timeZone={data.timezone} />
        </AccountSection>
        <AccountSection id="feeds" title={t('apiAccess.feedsTitle')}>
          <FeedsPanel />
        </AccountSection>
        <AccountSection id="audit-log" title={t('pages.auditLog')}>
          <p>{t('auditLog.accountLead')}</p>
          <p>
            <Link to={routePaths.auditLog}>{t('auditLog.openLink')}</Link>
          </p>
        </AccountSection>
        <StorageSection />
        <SupportSection />
        <AccountSection id="your-data" title={t('accountData.title')}>
          <ExportButton />
          <h3 className="account-data-subtitle">{t('accountData.deleteTitle')}</h3>
          <DeleteAccountForm hasPassword={data.has_password} />
        </AccountSection>
      </div>
    </Page>
  );
}

/**
 * The account screen of a member who is not the owner (docs/product.md#workspaces): their own
 * password, and the workspace's subscription and channels. An admin manages the channels; a
 * viewer or editor sees them read-only (every control disabled), as a viewer sees everything and
 * changes nothing. The plan, billing, tokens and the workspace's data are the owner's.
 */
function MemberAccountPage({
  account,
  role,
}: {
  account: NonNullable<ReturnType<typeof useAccount>['data']>;
  role: WorkspaceRoleName | undefined;
}) {
  const { t } = useTranslation();
  const admin = roleAllows(role, 'admin');
  const channels = (
    <>
      <MailsSection mails={account.mails} />
      <DiscordSection state={account.discord_state} />
      <ChatLinksSection />
      <QuietHoursSection account={account} />
      <AccountSection id="webhooks" title={t('webhooks.title')}>
        <WebhooksPanel targetId="" />
      </AccountSection>
    </>
  );
  return (
    <Page title="account">
      <p className="notice" data-testid="member-account-notice">
        {admin
          ? t('workspaces.ownerManages')
          : t(role === 'editor' ? 'workspaces.editorReadOnly' : 'workspaces.readOnly')}
      </p>
      <div className="account-grid">
        <PasswordSection hasPassword={account.has_password} />
        <SubscriptionSection account={account} readOnly />
        {admin ? (
          channels
        ) : (
          // display: contents keeps each section a cell of the grid; disabled reaches every control.
          <fieldset disabled className="read-only-sections" data-testid="read-only-sections">
            <legend className="visually-hidden">{t('workspaces.readOnlyLegend')}</legend>
            {channels}
          </fieldset>
        )}
        <StorageSection />
        <SupportSection />
      </div>
    </Page>
  );
}
