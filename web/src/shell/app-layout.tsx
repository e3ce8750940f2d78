import { useTranslation } from 'react-i18next';
import { Link, Outlet, useMatches, useNavigation } from 'react-router';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { useAccountLanguage } from '../i18n/use-account-language.ts';
import { routePaths } from '../route-paths.ts';
import { GuidedTour } from '../tour/guided-tour.tsx';
import { SiteFooter } from './site-footer.tsx';
import { TopNav } from './top-nav.tsx';

/** Route `handle` of the screens a visitor uses before signing in, which show no top navigation. */
export type ShellHandle = { hideTopNav?: boolean };

export function AppLayout() {
  const { t } = useTranslation();
  const userInfo = useUserInfo();
  useAccountLanguage(userInfo.data?.locale.Lang);
  const hideTopNav = useMatches().some((match) => (match.handle as ShellHandle | undefined)?.hideTopNav);
  const navigating = useNavigation().state === 'loading';
  const signedIn = Boolean(userInfo.data) && !userInfo.isSignedOut;
  return (
    <div className={hideTopNav ? 'app app-compact' : 'app'}>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      {navigating && <div className="progress-bar" aria-hidden="true" />}
      {hideTopNav ? (
        <header className="brand-bar">
          <Link to={routePaths.dashboard} className="brand">
            {t('app.name')}
          </Link>
        </header>
      ) : (
        <TopNav signedIn={signedIn} />
      )}
      <main id="main" className="main">
        {/* The tour is for a signed-in user's first site; the landing page at / is not its dashboard. */}
        {signedIn && <GuidedTour />}
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
