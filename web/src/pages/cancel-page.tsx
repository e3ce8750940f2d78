import { Page } from '../shell/page.tsx';

export default function CancelPage() {
  return <Page title="cancel" />;
}
