import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { acceptInvitation } from '../api/workspaces.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { routePaths } from '../route-paths.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { Page } from '../shell/page.tsx';

/**
 * A mailed invitation's link (docs/product.md#workspaces): signed in (the shell sends a signed-out
 * visitor to sign in and back), the person joins and the product opens in that workspace.
 */
export default function InvitationPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const accept = useMutation({
    mutationFn: acceptInvitation,
    // Everything cached so far was another workspace's: open the dashboard afresh.
    onSuccess: () => window.location.assign(routePaths.dashboard),
  });
  // Accepted once, even when React runs the effect twice in development.
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    accept.mutate(token);
  }, [accept, token]);

  return (
    <Page title="invitation">
      {accept.isError ? (
        <div className="notice">
          <FormMessage tone="error" message={`${t('workspaces.acceptFailed')} ${errorText(accept.error)}`} />
          <Link to={routePaths.dashboard} className="button">
            {t('workspaces.openDashboard')}
          </Link>
        </div>
      ) : (
        <>
          <p>{t('workspaces.accepting')}</p>
          <LoadingIndicator />
        </>
      )}
    </Page>
  );
}
