import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { loadChunk } from './chunk-load.ts';
import { routePaths } from './route-paths.ts';
import { AppLayout, type ShellHandle } from './shell/app-layout.tsx';
import { LandingForSignedOut } from './shell/landing-for-signed-out.tsx';
import { LoadingIndicator } from './shell/loading-indicator.tsx';
import { RedirectSignedIn } from './shell/redirect-signed-in.tsx';
import { RequireSignIn } from './shell/require-sign-in.tsx';
import { RouteErrorPage } from './shell/route-error-page.tsx';

/** Each screen is its own chunk, fetched when its route is first visited. */
function screen(importScreen: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => ({ Component: (await loadChunk(importScreen)).default });
}

const withoutTopNav: ShellHandle = { hideTopNav: true };

export const routes: RouteObject[] = [
  {
    Component: AppLayout,
    HydrateFallback: LoadingIndicator,
    // Catches a failure of the layout itself; the inner boundary keeps the navigation usable.
    ErrorBoundary: RouteErrorPage,
    children: [
      {
        ErrorBoundary: RouteErrorPage,
        children: [
          {
            path: routePaths.signin,
            Component: RedirectSignedIn,
            handle: withoutTopNav,
            children: [{ index: true, lazy: screen(() => import('./pages/signin-page.tsx')) }],
          },
          {
            path: routePaths.signup,
            handle: withoutTopNav,
            lazy: screen(() => import('./pages/signup-page.tsx')),
          },
          {
            path: routePaths.resetPassword,
            handle: withoutTopNav,
            lazy: screen(() => import('./pages/reset-password-page.tsx')),
          },
          {
            path: routePaths.verifyEmail,
            handle: withoutTopNav,
            lazy: screen(() => import('./pages/verify-email-page.tsx')),
          },
          {
            path: routePaths.chatLinkComplete,
            handle: withoutTopNav,
            lazy: screen(() => import('./pages/chat-link-complete-page.tsx')),
          },
          {
            path: routePaths.supportRequest,
            handle: withoutTopNav,
            lazy: screen(() => import('./pages/support-request-page.tsx')),
          },
          {
            path: routePaths.accountDeleted,
            handle: withoutTopNav,
            lazy: screen(() => import('./pages/account-deleted-page.tsx')),
          },
          {
            path: routePaths.mockShop,
            // The crawler's capture of the shop should be the shop, not the product's navigation.
            handle: withoutTopNav,
            lazy: screen(() => import('./pages/mock-shop-page.tsx')),
          },
          // Public, with the navigation: a signed-in user reads them too.
          { path: routePaths.legalCommerce, lazy: screen(() => import('./pages/legal-commerce-page.tsx')) },
          { path: routePaths.legalPrivacy, lazy: screen(() => import('./pages/legal-privacy-page.tsx')) },
          { path: routePaths.legalTerms, lazy: screen(() => import('./pages/legal-terms-page.tsx')) },
          {
            path: routePaths.dashboard,
            Component: LandingForSignedOut,
            children: [
              {
                Component: RequireSignIn,
                children: [{ index: true, lazy: screen(() => import('./pages/dashboard-page.tsx')) }],
              },
            ],
          },
          {
            Component: RequireSignIn,
            children: [
              { path: routePaths.account, lazy: screen(() => import('./pages/account-page.tsx')) },
              { path: routePaths.auditLog, lazy: screen(() => import('./pages/audit-log-page.tsx')) },
              { path: routePaths.members, lazy: screen(() => import('./pages/members-page.tsx')) },
              { path: routePaths.invitation, lazy: screen(() => import('./pages/invitation-page.tsx')) },
              { path: routePaths.security, lazy: screen(() => import('./pages/security-page.tsx')) },
              { path: routePaths.newCard, lazy: screen(() => import('./pages/new-card-page.tsx')) },
              { path: routePaths.planChange, lazy: screen(() => import('./pages/plan-change-page.tsx')) },
              { path: routePaths.cancel, lazy: screen(() => import('./pages/cancel-page.tsx')) },
              { path: routePaths.targetDetail, lazy: screen(() => import('./pages/target-detail-page.tsx')) },
              { path: routePaths.siteHistory, lazy: screen(() => import('./pages/target-history-page.tsx')) },
              {
                path: routePaths.targetRegistrationColumns,
                lazy: screen(() => import('./pages/target-registration-columns-page.tsx')),
              },
              {
                path: routePaths.targetRegistrationMobile,
                lazy: screen(() => import('./pages/target-registration-mobile-page.tsx')),
              },
            ],
          },
          { path: '*', lazy: screen(() => import('./pages/not-found-page.tsx')) },
        ],
      },
    ],
  },
];
