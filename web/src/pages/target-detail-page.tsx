import { Page } from '../shell/page.tsx';

export default function TargetDetailPage() {
  return <Page title="targetDetail" />;
}
