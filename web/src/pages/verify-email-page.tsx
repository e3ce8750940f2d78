import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useEmailVerification } from '../hooks/use-email-verification.ts';
import { routePaths } from '../route-paths.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { Page } from '../shell/page.tsx';

/** /verify?token=: opened from the mailed link; verifies once and says how it went. */
export default function VerifyEmailPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const token = useSearchParams()[0].get('token') ?? '';
  const verification = useEmailVerification(token);

  let body: ReactNode;
  if (token === '') body = <FormMessage tone="error" message={errorText('verification_link_invalid')} />;
  else if (verification.isPending) body = <LoadingIndicator />;
  else if (verification.isError) body = <FormMessage tone="error" message={errorText(verification.error)} />;
  else
    body = (
      <>
        <FormMessage
          tone="success"
          message={verification.data === 'verified' ? t('verify.verified') : t('verify.alreadyVerified')}
        />
        <p>
          <Link className="button primary" to={routePaths.signin}>
            {t('verify.toSignin')}
          </Link>
        </p>
      </>
    );
  return <Page title="verifyEmail">{body}</Page>;
}
