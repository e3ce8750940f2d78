import { Page } from '../shell/page.tsx';

export default function SigninPage() {
  return <Page title="signin" />;
}
