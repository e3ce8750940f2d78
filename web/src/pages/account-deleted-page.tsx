import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { routePaths } from '../route-paths.ts';
import { Page } from '../shell/page.tsx';

/** /goodbye?until=: after the account was deleted; says when everything is erased. */
export default function AccountDeletedPage() {
  const { t, i18n } = useTranslation();
  const until = new Date(useSearchParams()[0].get('until') ?? '');
  const date = Number.isNaN(until.getTime())
    ? ''
    : new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(until);
  return (
    <Page title="accountDeleted">
      <div data-testid="account-deleted">
        <p>{t('accountData.deletedLead')}</p>
        {date && <p>{t('accountData.deletedUntil', { date })}</p>}
        <p>{t('accountData.deletedMail')}</p>
        <p>
          <Link className="button" to={routePaths.signup}>
            {t('accountData.deletedBack')}
          </Link>
        </p>
      </div>
    </Page>
  );
}
