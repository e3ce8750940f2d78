import { TargetDetailScreen } from '../target-detail/target-detail-screen.tsx';

/** /target2?id=: a version 2 site. */
export default function TargetDetailPage() {
  return <TargetDetailScreen version={2} />;
}
