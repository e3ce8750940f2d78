import { Page } from '../shell/page.tsx';

export default function ChatLinkCompletePage() {
  return <Page title="chatLinkComplete" />;
}
