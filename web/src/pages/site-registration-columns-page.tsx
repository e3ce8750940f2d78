import { Page } from '../shell/page.tsx';

export default function SiteRegistrationColumnsPage() {
  return <Page title="siteRegistration" />;
}
