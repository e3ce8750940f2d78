import { SiteDetailScreen } from '../site-detail/site-detail-screen.tsx';

/** /target2?id=: a version 2 site. */
export default function TargetDetailPage() {
  return <SiteDetailScreen version={2} />;
}
