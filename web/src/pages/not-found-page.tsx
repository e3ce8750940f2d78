import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routePaths } from '../route-paths.ts';
import { Page } from '../shell/page.tsx';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Page title="notFound">
      <p>{t('notFound.body')}</p>
      <p>
        <Link to={routePaths.dashboard}>{t('notFound.home')}</Link>
      </p>
    </Page>
  );
}
