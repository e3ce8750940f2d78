import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { contactLinks } from '../contact-links.ts';
import { useNarrowWindow } from '../hooks/use-narrow-window.ts';
import { useSignOut } from '../hooks/use-sign-out.ts';
import { routePaths } from '../route-paths.ts';

const navLinkClass = ({ isActive }: { isActive: boolean }) => (isActive ? 'nav-link active' : 'nav-link');

export function TopNav({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const narrow = useNarrowWindow();
  const signOut = useSignOut();
  const siteRegistration = narrow
    ? routePaths.targetRegistrationMobile
    : routePaths.targetRegistrationColumns;
  return (
    <header className="top-nav">
      <div className="top-nav-inner">
        <Link to={routePaths.dashboard} className="brand">
          {t('app.name')}
        </Link>
        <nav aria-label={t('nav.label')}>
          <ul className="nav-list">
            <li>
              <NavLink to={routePaths.dashboard} end className={navLinkClass}>
                {t('nav.dashboard')}
              </NavLink>
            </li>
            <li>
              <NavLink to={routePaths.account} className={navLinkClass}>
                {t('nav.account')}
              </NavLink>
            </li>
            <li>
              <NavLink to={siteRegistration} className={navLinkClass}>
                {t('nav.siteRegistration')}
              </NavLink>
            </li>
            <li>
              <a
                className="nav-link"
                href={contactLinks.socialMedia}
                target="_blank"
                rel="noopener noreferrer"
              >
                {t('nav.socialContact')}
              </a>
            </li>
            <li>
              <a className="nav-link" href={contactLinks.mail}>
                {t('nav.mailContact')}
              </a>
            </li>
            {signedIn && (
              <li>
                <button
                  type="button"
                  className="nav-link nav-button"
                  disabled={signOut.isPending}
                  onClick={() => signOut.mutate()}
                >
                  {t('nav.signOut')}
                </button>
              </li>
            )}
          </ul>
        </nav>
      </div>
      {signOut.isError && (
        <p className="nav-error" role="alert">
          {t('messages.signOutFailed')}
        </p>
      )}
    </header>
  );
}
