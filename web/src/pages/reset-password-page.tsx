import { Page } from '../shell/page.tsx';

export default function ResetPasswordPage() {
  return <Page title="resetPassword" />;
}
