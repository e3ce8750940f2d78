import { Navigate, Outlet } from 'react-router';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { routePaths } from '../route-paths.ts';
import { LoadingIndicator } from './loading-indicator.tsx';

/** Layout of /signin: a visitor who is already signed in goes to the dashboard. */
export function RedirectSignedIn() {
  const userInfo = useUserInfo();
  if (userInfo.data && !userInfo.isSignedOut) return <Navigate to={routePaths.dashboard} replace />;
  if (userInfo.isPending) return <LoadingIndicator />;
  return <Outlet />;
}
