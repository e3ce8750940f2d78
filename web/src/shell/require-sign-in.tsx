import { useTranslation } from 'react-i18next';
import { createPath, Navigate, Outlet, useLocation } from 'react-router';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { routePaths } from '../route-paths.ts';
import { LoadFailure } from './load-failure.tsx';
import { LoadingIndicator } from './loading-indicator.tsx';

/** Layout of the login-required routes: they render only once user_info has loaded. */
export function RequireSignIn() {
  const { t } = useTranslation();
  const location = useLocation();
  const userInfo = useUserInfo();
  if (userInfo.isSignedOut) {
    const next = encodeURIComponent(createPath(location));
    return <Navigate to={`${routePaths.signin}?next=${next}`} replace />;
  }
  if (userInfo.data) return <Outlet />;
  if (userInfo.isError) return <LoadFailure message={t('messages.userInfoLoadFailed')} />;
  return <LoadingIndicator />;
}
