import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { contactLinks } from '../contact-links.ts';
import { useNarrowWindow } from '../hooks/use-narrow-window.ts';
import { useSignOut } from '../hooks/use-sign-out.ts';
import { routePaths } from '../route-paths.ts';
import { useCanChange } from '../workspaces/use-role.ts';
import { WorkspaceSwitcher } from '../workspaces/workspace-switcher.tsx';

const navLinkClass = ({ isActive }: { isActive: boolean }) => (isActive ? 'nav-link active' : 'nav-link');

export function TopNav({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation();
  const narrow = useNarrowWindow();
  const signOut = useSignOut();
  const canEdit = useCanChange('editor');
  const location = useLocation();
  // Below 768 px the links fold behind a menu button, so the bar stays one row on a phone.
  const [menuOpen, setMenuOpen] = useState(false);
  // A followed link (or a resize to the wide layout) closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the reaction to the path changing.
  useEffect(() => setMenuOpen(false), [location.pathname, narrow]);
  const menuButton = useRef<HTMLButtonElement>(null);
  // Escape closes the open menu wherever the focus is (it is on the menu button right after
  // opening), and the focus goes back to the button so the keyboard user is not lost.
  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);
  const siteRegistration = narrow
    ? routePaths.targetRegistrationMobile
    : routePaths.targetRegistrationColumns;
  return (
    <header className="top-nav">
      <div className="top-nav-inner">
        <Link to={routePaths.dashboard} className="brand">
          {t('app.name')}
        </Link>
        {narrow && (
          <button
            ref={menuButton}
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls="top-nav-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span className="menu-icon" aria-hidden="true" />
            {t(menuOpen ? 'nav.closeMenu' : 'nav.menu')}
          </button>
        )}
        <nav id="top-nav-menu" aria-label={t('nav.label')} hidden={narrow && !menuOpen}>
          <ul className="nav-list">
            {/* Signed out, / is the landing page and the account has nothing to show. */}
            {signedIn && (
              <>
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
                  <NavLink to={routePaths.members} className={navLinkClass}>
                    {t('nav.members')}
                  </NavLink>
                </li>
              </>
            )}
            {/* A viewer registers no site; signed out, the link leads to sign-up's way in. */}
            {(!signedIn || canEdit) && (
              <li>
                <NavLink to={siteRegistration} className={navLinkClass}>
                  {t('nav.siteRegistration')}
                </NavLink>
              </li>
            )}
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
            {!signedIn && (
              <li className="nav-end">
                <Link to={routePaths.signin} className="nav-link nav-button">
                  {t('nav.signIn')}
                </Link>
              </li>
            )}
            {signedIn && (
              <li className="nav-end">
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
      {signedIn && <WorkspaceSwitcher />}
      {signOut.isError && (
        <p className="nav-error" role="alert">
          {t('messages.signOutFailed')}
        </p>
      )}
    </header>
  );
}
