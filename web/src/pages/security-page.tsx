import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AccountSection } from '../account/account-section.tsx';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useAccount } from '../hooks/use-account.ts';
import { useSecurity } from '../hooks/use-security.ts';
import { routePaths } from '../route-paths.ts';
import { PasskeysPanel } from '../security/passkeys-panel.tsx';
import { SessionsPanel } from '../security/sessions-panel.tsx';
import { TotpPanel } from '../security/totp-panel.tsx';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { Page } from '../shell/page.tsx';
import '../security/security.css';

/** Sign-in security (docs/product.md#two-factor-sign-in): TOTP, recovery codes, passkeys, sessions. */
export default function SecurityPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const security = useSecurity();
  const account = useAccount();
  const timeZone = account.data?.timezone ?? '';
  // Sent here by a workspace that requires a second factor (query-client.ts).
  const [search] = useSearchParams();

  return (
    <Page title="security">
      <p className="lead security-lead">
        {t('security.lead')} <Link to={routePaths.account}>{t('security.toAccount')}</Link>
      </p>
      {search.get('required') === '1' && (
        <p className="notice" role="status" data-testid="two-factor-required">
          {t('errors.two_factor_required')}
        </p>
      )}
      {security.isPending && <LoadingIndicator />}
      {security.isError && (
        <div className="notice">
          <FormMessage tone="error" message={errorText(security.error)} />
          <button type="button" className="button" onClick={() => void security.refetch()}>
            {t('actions.retry')}
          </button>
        </div>
      )}
      {security.isSuccess && (
        <div className="account-grid">
          <AccountSection id="totp" title={t('security.totp.title')}>
            <TotpPanel settings={security.data} />
          </AccountSection>
          <AccountSection id="passkeys" title={t('security.passkeys.title')}>
            <PasskeysPanel passkeys={security.data.passkeys} timeZone={timeZone} />
          </AccountSection>
          <AccountSection id="sessions" title={t('security.sessions.title')}>
            <SessionsPanel timeZone={timeZone} />
          </AccountSection>
        </div>
      )}
    </Page>
  );
}
