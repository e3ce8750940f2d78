import { TargetDetailScreen } from '../target-detail/target-detail-screen.tsx';

/** /history?id=: a version 1 (whole-page) site; the same history, without the wizard's links. */
export default function TargetHistoryPage() {
  return <TargetDetailScreen version={1} />;
}
