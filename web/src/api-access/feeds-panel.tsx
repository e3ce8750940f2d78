import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFeedUrls, useRotateFeedUrls } from '../hooks/use-api-access.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { CopyButton } from './copy-button.tsx';
import './api-access.css';

/**
 * The account's Atom and RSS feeds (docs/api.md#feeds): secret URLs for a feed reader, and a way
 * to replace them when one has leaked.
 */
export function FeedsPanel() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const feeds = useFeedUrls();
  const rotate = useRotateFeedUrls();
  const [confirming, setConfirming] = useState(false);
  const rows = feeds.data
    ? [
        { key: 'atom', label: t('apiAccess.atom'), url: feeds.data.atom_url },
        { key: 'rss', label: t('apiAccess.rss'), url: feeds.data.rss_url },
      ]
    : [];
  return (
    <div className="api-access-panel" data-testid="feeds">
      <p className="lead">{t('apiAccess.feedsLead')}</p>
      {feeds.isPending && <LoadingIndicator />}
      {feeds.isError && <FormMessage tone="error" message={errorText(feeds.error)} />}
      {rows.length > 0 && (
        <dl className="feed-list">
          {rows.map((row) => (
            <div key={row.key} className="feed-row" data-testid={`feed-${row.key}`}>
              <dt id={`feed-${row.key}-label`} className="field-label">
                {row.label}
              </dt>
              <dd>
                <code className="api-access-value">{row.url}</code>
                <CopyButton text={row.url} describedBy={`feed-${row.key}-label`} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {feeds.isSuccess && <p className="field-hint">{t('apiAccess.siteFeedWhere')}</p>}
      {rotate.isSuccess && <FormMessage tone="success" message={t('apiAccess.rotated')} />}
      {rotate.isError && <FormMessage tone="error" message={errorText(rotate.error)} />}
      {feeds.isSuccess && (
        <div className="button-row">
          {confirming ? (
            <>
              <button
                type="button"
                className="button small danger-solid"
                disabled={rotate.isPending}
                onClick={() => rotate.mutate(undefined, { onSettled: () => setConfirming(false) })}
              >
                {t('apiAccess.confirmRotate')}
              </button>
              <button type="button" className="button small" onClick={() => setConfirming(false)}>
                {t('apiAccess.keep')}
              </button>
            </>
          ) : (
            <button type="button" className="button small" onClick={() => setConfirming(true)}>
              {t('apiAccess.rotate')}
            </button>
          )}
        </div>
      )}
      {confirming && <p className="field-hint">{t('apiAccess.rotateWarning')}</p>}
    </div>
  );
}
