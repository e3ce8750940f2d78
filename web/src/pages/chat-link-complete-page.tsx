import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routePaths } from '../route-paths.ts';
import { Page } from '../shell/page.tsx';

/** Where the chat service sends the user back after connecting notifications. */
export default function ChatLinkCompletePage() {
  const { t } = useTranslation();
  return (
    <Page title="chatLinkComplete">
      <p role="status" className="form-message success">
        {t('chatLinkComplete.body')}
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
