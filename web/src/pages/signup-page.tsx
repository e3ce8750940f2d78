import { Page } from '../shell/page.tsx';

export default function SignupPage() {
  return <Page title="signup" />;
}
