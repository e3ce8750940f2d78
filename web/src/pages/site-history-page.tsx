import { Page } from '../shell/page.tsx';

export default function SiteHistoryPage() {
  return <Page title="siteHistory" />;
}
