import { Page } from '../shell/page.tsx';

export default function SiteRegistrationMobilePage() {
  return <Page title="siteRegistration" />;
}
