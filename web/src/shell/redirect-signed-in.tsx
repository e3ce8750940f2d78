import { Navigate, Outlet, useSearchParams } from 'react-router';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { nextPathFrom } from '../next-path.ts';
import { LoadingIndicator } from './loading-indicator.tsx';

/**
 * Layout of /signin: a visitor who is already signed in goes to the dashboard, or to the
 * `next` path a login-required page sent them with (which is also where a sign-in lands).
 */
export function RedirectSignedIn() {
  const userInfo = useUserInfo();
  const [search] = useSearchParams();
  if (userInfo.data && !userInfo.isSignedOut) return <Navigate to={nextPathFrom(search)} replace />;
  if (userInfo.isPending) return <LoadingIndicator />;
  return <Outlet />;
}
