import { Page } from '../shell/page.tsx';

export default function NewCardPage() {
  return <Page title="newCard" />;
}
