import { useState } from 'react';
import { monitoringStopped } from '../billing/subscription-state.ts';
import { useSubscriptionState } from '../billing/use-subscription-state.ts';
import { BrokenChatLinksWarning } from '../chat-links/broken-chat-links-warning.tsx';
import { FilingsSection } from '../dashboard/filings/filings-section.tsx';
import { HoldLiftedBanner } from '../dashboard/hold-lifted-banner.tsx';
import { SubscriptionBanner } from '../dashboard/subscription-banner.tsx';
import { TargetListSection } from '../dashboard/target-list-section.tsx';
import { TimezonePicker } from '../dashboard/timezone-picker.tsx';
import { UsageSection } from '../dashboard/usage-section.tsx';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { Page } from '../shell/page.tsx';
import '../dashboard/dashboard.css';

export default function DashboardPage() {
  // The route renders only once user_info has loaded (RequireSignIn), failures included.
  const info = useUserInfo().data;
  const subscription = useSubscriptionState();
  const [timezoneDismissed, setTimezoneDismissed] = useState(false);
  if (!info) return null;
  return (
    <Page title="dashboard">
      <div className="dashboard">
        <SubscriptionBanner state={subscription} />
        <HoldLiftedBanner state={subscription} />
        <BrokenChatLinksWarning />
        <TargetListSection />
        <FilingsSection info={info} />
        <UsageSection info={info} stopped={monitoringStopped(subscription)} />
      </div>
      {info.locale.Timezone === '' && !timezoneDismissed && (
        <TimezonePicker onDismiss={() => setTimezoneDismissed(true)} />
      )}
    </Page>
  );
}
