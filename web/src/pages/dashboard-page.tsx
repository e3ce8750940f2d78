import { Page } from '../shell/page.tsx';

export default function DashboardPage() {
  return <Page title="dashboard" />;
}
