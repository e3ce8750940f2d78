import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../api/client.ts';
import type { TargetVersion } from '../api/history.ts';
import { SiteFeedPanel } from '../api-access/site-feed-panel.tsx';
import { ChatLinksPanel } from '../chat-links/chat-links-panel.tsx';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useHistory } from '../hooks/use-history.ts';
import { routePaths } from '../route-paths.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { Page } from '../shell/page.tsx';
import { WebhooksPanel } from '../webhooks/webhooks-panel.tsx';
import { HistoryControls } from './history-controls.tsx';
import { HistoryList } from './history-list.tsx';
import {
  changeHistoryView,
  type DiffLayout,
  type HistoryView,
  type HistoryViewChange,
  historyViewFromQuery,
  historyViewQuery,
} from './history-view.ts';
import { RegistrationDataSection } from './registration-data.tsx';
import { TargetHeader } from './target-header.tsx';
import './target-detail.css';
import { useSubscriptionState } from '../billing/use-subscription-state.ts';
import { SubscriptionBanner } from '../dashboard/subscription-banner.tsx';

/**
 * The site detail (docs/product.md#history) of a v2 site (/target2) or the history of a v1 site (/history):
 * the site's state and actions, its check and update history, and the data at registration.
 */
export function TargetDetailScreen({ version }: { version: TargetVersion }) {
  const title = version === 2 ? 'targetDetail' : 'siteHistory';
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  if (!id) {
    return (
      <Page title={title}>
        <MissingTarget message={t('siteDetail.missingId')} />
      </Page>
    );
  }
  return (
    <Page title={title}>
      <SiteDetail key={id} version={version} id={id} />
    </Page>
  );
}

function SiteDetail({ version, id }: { version: TargetVersion; id: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [params, setParams] = useSearchParams();
  // The view answers a click at once; the address follows (router navigations settle later).
  const [view, setView] = useState<HistoryView>(() => historyViewFromQuery(params));
  const changeView = (change: HistoryViewChange) => {
    const next = changeHistoryView(view, change);
    setView(next);
    // Replaced, not pushed: Back leaves the site detail rather than stepping through filters.
    setParams(historyViewQuery(params, next), { replace: true });
  };
  const [layout, setLayout] = useState<DiffLayout>('inline');
  const history = useHistory(version, { id, ...view });
  // What stops or will soon stop this site's monitoring is said here too (docs/product.md#subscription).
  const subscription = useSubscriptionState();

  if (history.isPending) return <LoadingIndicator />;
  if (history.isError && !history.data) {
    if (history.error instanceof ApiError && history.error.status === 404) {
      return <MissingTarget message={t('siteDetail.notFound')} />;
    }
    return (
      <div className="notice">
        <FormMessage tone="error" message={`${t('siteDetail.loadFailed')} ${errorText(history.error)}`} />
        <button type="button" className="button" onClick={() => void history.refetch()}>
          {t('actions.retry')}
        </button>
      </div>
    );
  }
  const page = history.data;
  return (
    <div className="site-detail">
      <SubscriptionBanner state={subscription} compact />
      <TargetHeader version={version} site={page.target} timeZone={page.time_zone} />
      <section className="detail-section" aria-labelledby="history-title">
        <h2 id="history-title" className="section-title">
          {t('siteDetail.history')}
        </h2>
        <HistoryControls
          view={view}
          timeZone={page.time_zone}
          layout={layout}
          onLayout={setLayout}
          onChange={changeView}
        />
        {history.isError && <FormMessage tone="error" message={errorText(history.error)} />}
        <HistoryList
          page={page}
          view={view}
          layout={layout}
          loading={history.isPlaceholderData}
          onChange={changeView}
        />
      </section>
      <RegistrationDataSection version={version} id={id} timeZone={page.time_zone} />
      <section className="detail-section" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title" className="section-title">
          {t('webhooks.title')}
        </h2>
        <WebhooksPanel targetId={id} />
      </section>
      <section className="detail-section" aria-labelledby="site-chat-links-title">
        <h2 id="site-chat-links-title" className="section-title">
          {t('chatLinks.title')}
        </h2>
        <ChatLinksPanel targetId={id} />
      </section>
      <section className="detail-section" aria-labelledby="site-feed-title">
        <h2 id="site-feed-title" className="section-title">
          {t('apiAccess.siteFeedTitle')}
        </h2>
        <SiteFeedPanel targetId={id} />
      </section>
    </div>
  );
}

function MissingTarget({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <div className="notice">
      <p>{message}</p>
      <Link className="button" to={routePaths.dashboard}>
        {t('siteDetail.backToDashboard')}
      </Link>
    </div>
  );
}
