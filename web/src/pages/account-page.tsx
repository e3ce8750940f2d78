import { Page } from '../shell/page.tsx';

export default function AccountPage() {
  return <Page title="account" />;
}
