import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../../api/user-info.ts';
import { FormMessage } from '../../forms/form-message.tsx';
import {
  type FilingsOption,
  type FollowedItem,
  useFilingsSources,
  useFollowChange,
} from '../../hooks/use-filings.ts';
import { CompanySearch, CompanyText } from './company-search.tsx';
import { type CompanyLine, cikIsinLine, companyLabel, japaneseCompanyLine } from './describe-company.ts';
import { ADDED_FLAG_MS } from './search-rules.ts';
import './filings.css';

/**
 * Where the ISIN link sends a user who knows only a ticker: no free API maps a ticker to an ISIN,
 * so a lookup page is linked instead (docs/product.md#filings).
 */
const ISIN_LOOKUP_URL = 'https://isinconverter.com/';

type Outcome = { tone: 'success' | 'error'; text: string };
type Followed = { line: CompanyLine; item: FollowedItem };

/**
 * The dashboard's filings section (docs/product.md#filings): in Japanese, TDnet and EDINET
 * companies; in other languages, SEC companies or GlobeNewswire issuers by ISIN. Followed
 * companies are listed from user_info, each with a delete button, and one just added is flagged
 * for 3 seconds. One follow or delete runs at a time; a click while one runs is ignored.
 */
export function FilingsSection({ info }: { info: UserInfo }) {
  const { t, i18n } = useTranslation();
  const japanese = i18n.language === 'ja';
  const change = useFollowChange();
  const sources = useFilingsSources().data;
  // Follows made while the demo answers get demo filings: the list says so too.
  const demo = sources?.demo === true;
  const running = useRef(false);
  const messageArea = useRef<HTMLDivElement>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [added, setAdded] = useState<CompanyLine | null>(null);
  const [focusRequest, setFocusRequest] = useState(0);

  useEffect(() => {
    if (!added) return;
    const timer = setTimeout(() => setAdded(null), ADDED_FLAG_MS);
    return () => clearTimeout(timer);
  }, [added]);
  useEffect(() => {
    // A deleted row takes its button with it: focus the outcome instead.
    if (focusRequest > 0) messageArea.current?.querySelector<HTMLElement>('[data-form-message]')?.focus();
  }, [focusRequest]);

  const followed: Followed[] = japanese
    ? info.tdedinets.map((item) => ({
        line: { ...japaneseCompanyLine(t, item), demo },
        item: { kind: 'tdedi', item },
      }))
    : info.cik_isins.map((item) => ({
        line: { ...cikIsinLine(t, item), demo },
        item: { kind: 'cikisin', item },
      }));
  const followedKeys = new Set(followed.map((entry) => entry.line.key));

  const follow = (option: FilingsOption, line: CompanyLine) => {
    if (running.current) return;
    running.current = true;
    setOutcome(null);
    change.mutate(
      { follow: option },
      {
        onSuccess: () => setAdded(line),
        onError: () => setOutcome({ tone: 'error', text: t('dashboard.filings.registerFailed') }),
        onSettled: () => {
          running.current = false;
        },
      },
    );
  };

  const unfollow = (entry: Followed) => {
    if (running.current) return;
    running.current = true;
    setOutcome(null);
    change.mutate(
      { unfollow: entry.item },
      {
        onSuccess: () =>
          setOutcome({ tone: 'success', text: t('dashboard.filings.deleted', { name: entry.line.name }) }),
        onError: () => setOutcome({ tone: 'error', text: t('dashboard.filings.registerFailed') }),
        onSettled: () => {
          running.current = false;
          setFocusRequest((count) => count + 1);
        },
      },
    );
  };

  return (
    <section className="dashboard-section filings" id="filings" aria-labelledby="filings-title">
      <h2 id="filings-title" className="section-title">
        {t('dashboard.filings.title')}
      </h2>
      <p className="filings-intro">
        {japanese ? t('dashboard.filings.japanese.intro') : t('dashboard.filings.foreign.intro')}
      </p>
      {demo && (
        <div className="filings-demo-note" data-testid="filings-demo-note">
          <p className="filings-demo-title">
            <span className="badge filings-demo">{t('dashboard.filings.demoBadge')}</span>{' '}
            {t('dashboard.filings.demoTitle')}
          </p>
          <p>{t('dashboard.filings.demoNote')}</p>
        </div>
      )}
      {sources && !sources.demo && sources.sources.length === 0 && (
        <p className="filings-note">{t('dashboard.filings.sourcesOff')}</p>
      )}
      {japanese ? (
        <CompanySearch
          kind="tdedi"
          label={t('dashboard.filings.japanese.search')}
          hint={t('dashboard.filings.japanese.hint')}
          followedKeys={followedKeys}
          onFollow={follow}
        />
      ) : (
        <ForeignSearch followedKeys={followedKeys} onFollow={follow} />
      )}
      <div ref={messageArea} className="filings-message">
        {outcome && <FormMessage tone={outcome.tone} message={outcome.text} />}
      </div>
      <h3 className="filings-subtitle">{t('dashboard.filings.followed')}</h3>
      {followed.length === 0 ? (
        <p className="filings-note">{t('dashboard.filings.empty')}</p>
      ) : (
        <ul className="filings-list" data-testid="filings-followed">
          {followed.map((entry) => (
            <li key={entry.line.key} className="filings-row">
              <CompanyText line={entry.line} />
              <span className="filings-actions">
                {added?.key === entry.line.key && (
                  <span className="badge filings-added">{t('dashboard.filings.added')}</span>
                )}
                <button type="button" className="button small danger" onClick={() => unfollow(entry)}>
                  {t('dashboard.filings.delete')}
                  <span className="visually-hidden"> {companyLabel(entry.line)}</span>
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="visually-hidden" role="status">
        {added ? t('dashboard.filings.addedStatus', { name: added.name }) : ''}
      </p>
    </section>
  );
}

/** Other languages: SEC by CIK, ticker or keyword, or GlobeNewswire by ISIN. */
function ForeignSearch(props: {
  followedKeys: ReadonlySet<string>;
  onFollow: (option: FilingsOption, line: CompanyLine) => void;
}) {
  const { t } = useTranslation();
  const name = useId();
  const [source, setSource] = useState<'cik' | 'isin'>('cik');
  return (
    <>
      <fieldset className="filings-sources">
        <legend className="field-label">{t('dashboard.filings.foreign.source')}</legend>
        {(['cik', 'isin'] as const).map((choice) => (
          <label key={choice} className="checkbox">
            <input
              type="radio"
              name={name}
              value={choice}
              checked={source === choice}
              onChange={() => setSource(choice)}
            />
            {choice === 'cik' ? t('dashboard.filings.foreign.sec') : t('dashboard.filings.foreign.isin')}
          </label>
        ))}
      </fieldset>
      {/* Keyed by source, so switching starts from an empty box. */}
      <CompanySearch
        key={source}
        kind={source}
        label={
          source === 'cik'
            ? t('dashboard.filings.foreign.secSearch')
            : t('dashboard.filings.foreign.isinSearch')
        }
        hint={
          source === 'cik' ? t('dashboard.filings.foreign.secHint') : t('dashboard.filings.foreign.isinHint')
        }
        {...props}
      >
        {source === 'isin' && (
          <p className="filings-lookup">
            <a href={ISIN_LOOKUP_URL} target="_blank" rel="noopener noreferrer">
              {t('dashboard.filings.foreign.isinLookup')}
              <span className="visually-hidden"> {t('dashboard.filings.foreign.newTab')}</span>
            </a>
          </p>
        )}
      </CompanySearch>
    </>
  );
}
