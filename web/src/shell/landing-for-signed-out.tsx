import { lazy, Suspense } from 'react';
import { Outlet } from 'react-router';
import { loadChunk } from '../chunk-load.ts';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { LoadingIndicator } from './loading-indicator.tsx';

const LandingPage = lazy(() => loadChunk(() => import('../pages/landing-page.tsx')));

/**
 * Layout of `/`: a signed-out visitor sees the landing page there instead of being sent to
 * sign-in; a signed-in user (or one still being asked about) gets the dashboard's route.
 */
export function LandingForSignedOut() {
  const userInfo = useUserInfo();
  if (!userInfo.isSignedOut) return <Outlet />;
  return (
    <Suspense fallback={<LoadingIndicator />}>
      <LandingPage />
    </Suspense>
  );
}
