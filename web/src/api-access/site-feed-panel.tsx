import { useTranslation } from 'react-i18next';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFeedUrls } from '../hooks/use-api-access.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { CopyButton } from './copy-button.tsx';
import './api-access.css';

/** One site's own Atom and RSS feed URLs (docs/api.md#feeds), on its detail page. */
export function SiteFeedPanel({ targetId }: { targetId: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const feeds = useFeedUrls();
  const atom = feeds.data?.site_atom_url.replace('{target_id}', encodeURIComponent(targetId)) ?? '';
  const rows = atom
    ? [
        { key: 'atom', label: t('apiAccess.siteAtom'), url: atom },
        { key: 'rss', label: t('apiAccess.siteRss'), url: atom.replace(/atom\.xml$/, 'rss.xml') },
      ]
    : [];
  return (
    <div className="api-access-panel" data-testid="site-feed">
      <p className="lead">{t('apiAccess.siteFeedLead')}</p>
      {feeds.isPending && <LoadingIndicator />}
      {feeds.isError && <FormMessage tone="error" message={errorText(feeds.error)} />}
      {rows.length > 0 && (
        <dl className="feed-list">
          {rows.map((row) => (
            <div key={row.key} className="feed-row" data-testid={`site-feed-${row.key}`}>
              <dt id={`site-feed-${row.key}-label`} className="field-label">
                {row.label}
              </dt>
              <dd>
                <code className="api-access-value">{row.url}</code>
                <CopyButton text={row.url} describedBy={`site-feed-${row.key}-label`} />
              </dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
