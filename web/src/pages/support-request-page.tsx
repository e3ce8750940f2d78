import { Page } from '../shell/page.tsx';

export default function SupportRequestPage() {
  return <Page title="supportRequest" />;
}
