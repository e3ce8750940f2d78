import { Page } from '../shell/page.tsx';

export default function PlanChangePage() {
  return <Page title="planChange" />;
}
