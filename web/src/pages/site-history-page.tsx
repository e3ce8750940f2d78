import { SiteDetailScreen } from '../site-detail/site-detail-screen.tsx';

/** /history?id=: a version 1 (whole-page) site; the same history, without the wizard's links. */
export default function SiteHistoryPage() {
  return <SiteDetailScreen version={1} />;
}
