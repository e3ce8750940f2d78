import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAccount } from '../hooks/use-account.ts';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { routePaths } from '../route-paths.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { Page } from '../shell/page.tsx';

/**
 * Where the chat service sends the user back after connecting notifications. It says connected
 * only when the account's link is complete: the address alone proves nothing (anyone can open it).
 */
export default function ChatLinkCompletePage() {
  const { t } = useTranslation();
  // A signed-out visitor has no account to ask about (and no link): no request, no logged 401.
  const userInfo = useUserInfo();
  const account = useAccount({ enabled: Boolean(userInfo.data) });
  if ((userInfo.isPending || account.isPending) && !userInfo.isSignedOut) {
    return (
      <Page title="chatLinkComplete">
        <LoadingIndicator />
      </Page>
    );
  }
  const connected = account.data?.discord_state === 'complete';
  return (
    <Page title={connected ? 'chatLinkComplete' : 'chatLinkMissing'}>
      <p role="status" className={connected ? 'form-message success' : 'form-message'}>
        {t(connected ? 'chatLinkComplete.body' : 'chatLinkComplete.missing')}
      </p>
      <p className="button-row">
        <Link className="button primary" to={routePaths.account}>
          {t('chatLinkComplete.toAccount')}
        </Link>
        <Link className="button" to={routePaths.dashboard}>
          {t('chatLinkComplete.toDashboard')}
        </Link>
      </p>
    </Page>
  );
}
