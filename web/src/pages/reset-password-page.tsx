import { useSearchParams } from 'react-router';
import { ResetCompletionForm } from '../reset-password/reset-completion-form.tsx';
import { ResetRequestForm } from '../reset-password/reset-request-form.tsx';
import { Page } from '../shell/page.tsx';

/** /reset_pass asks for the address; /reset_pass?token= (the mailed link) sets the new password. */
export default function ResetPasswordPage() {
  const token = useSearchParams()[0].get('token');
  return (
    <Page title="resetPassword">{token ? <ResetCompletionForm token={token} /> : <ResetRequestForm />}</Page>
  );
}
