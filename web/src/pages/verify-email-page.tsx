import { Page } from '../shell/page.tsx';

export default function VerifyEmailPage() {
  return <Page title="verifyEmail" />;
}
