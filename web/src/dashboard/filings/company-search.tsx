import { checkIsin } from '@mimamori/isin';
import type { TFunction } from 'i18next';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FilingsOption, type FilingsSearchKind, useFilingsSearch } from '../../hooks/use-filings.ts';
import {
  type CompanyLine,
  companyLabel,
  isinIssuerLine,
  japaneseCompanyLine,
  secCompanyLine,
} from './describe-company.ts';
import { isinMessage, searchableQuery, searchFailure } from './search-rules.ts';

/** Typing pauses this long before a company search is sent, so each keystroke is not a request. */
const TYPING_PAUSE_MS = 300;

type Props = {
  kind: FilingsSearchKind;
  label: string;
  /** What to type, and that nothing is searched before enough of it. */
  hint: string;
  /** Keys of the companies already followed (follow-keys.ts). */
  followedKeys: ReadonlySet<string>;
  onFollow: (option: FilingsOption, line: CompanyLine) => void;
  /** Shown under the box, above the options (the ISIN lookup link). */
  children?: ReactNode;
};

/**
 * One search box and its options (docs/product.md#filings): a company search waits for 3
 * characters, an ISIN search for 12 with a valid check digit, and nothing is sent before.
 */
export function CompanySearch({ kind, label, hint, followedKeys, onFollow, children }: Props) {
  const { t } = useTranslation();
  const inputId = useId();
  const hintId = useId();
  const problemId = useId();
  const [input, setInput] = useState('');
  const typed = useTypingPause(input);
  const isin = kind === 'isin';
  const isinCheck = isin ? checkIsin(input) : null;
  // An ISIN is sent as soon as it is whole and valid: there is nothing more to wait for.
  const query = isinCheck ? (isinCheck.ok ? isinCheck.isin : null) : searchableQuery(typed);
  const search = useFilingsSearch(kind, query);
  const problem = isin ? isinMessage(input) : null;

  const describedBy = problem ? `${hintId} ${problemId}` : hintId;
  return (
    <div className="filings-search">
      <div className="field">
        <label className="field-label" htmlFor={inputId}>
          {label}
        </label>
        <input
          id={inputId}
          className="input"
          type="search"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          maxLength={isin ? 20 : 100}
          aria-describedby={describedBy}
          aria-invalid={problem ? true : undefined}
        />
        <p id={hintId} className="field-hint">
          {hint}
        </p>
        {problem && (
          <p id={problemId} className="field-error">
            {problem === 'length' ? t('dashboard.filings.isinLength') : t('dashboard.filings.isinInvalid')}
          </p>
        )}
      </div>
      {children}
      <div className="filings-search-outcome">
        {query !== null && <SearchOutcome search={search} followedKeys={followedKeys} onFollow={onFollow} />}
      </div>
    </div>
  );
}

function SearchOutcome({
  search,
  followedKeys,
  onFollow,
}: {
  search: ReturnType<typeof useFilingsSearch>;
  followedKeys: ReadonlySet<string>;
  onFollow: Props['onFollow'];
}) {
  const { t } = useTranslation();
  // The short notes are announced; the options are not read out as they arrive, only reached.
  const note = search.isFetching
    ? t('dashboard.filings.searching')
    : search.isSuccess && search.data.length === 0
      ? t('dashboard.filings.notFound')
      : '';
  const status = (
    <p className="filings-note" role="status">
      {note}
    </p>
  );
  if (search.isFetching && !search.isSuccess) return status;
  if (search.isError) {
    const failure = searchFailure(search.error);
    return (
      <>
        {status}
        <p className="field-error" role="alert">
          {t(failure.key, { source: failure.source })}
        </p>
      </>
    );
  }
  if (!search.isSuccess || search.data.length === 0) return status;
  return (
    <>
      {status}
      <ul className="filings-list filings-options" aria-label={t('dashboard.filings.results')}>
        {search.data.map((option) => {
          const line = optionLine(t, option);
          const followed = followedKeys.has(line.key);
          return (
            <li key={line.key} className="filings-row">
              <CompanyText line={line} />
              <span className="filings-actions">
                <button
                  type="button"
                  className={followed ? 'button small' : 'button small primary'}
                  aria-disabled={followed ? true : undefined}
                  onClick={() => {
                    if (!followed) onFollow(option, line);
                  }}
                >
                  {followed ? t('dashboard.filings.following') : t('dashboard.filings.follow')}
                  <span className="visually-hidden"> {companyLabel(line)}</span>
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </>
  );
}

function optionLine(t: TFunction, option: FilingsOption): CompanyLine {
  const line =
    option.kind === 'tdedi'
      ? japaneseCompanyLine(t, option.option)
      : option.kind === 'cik'
        ? secCompanyLine(t, option.option)
        : isinIssuerLine(t, option.option);
  return { ...line, demo: option.option.demo === true };
}

export function CompanyText({ line }: { line: CompanyLine }) {
  const { t } = useTranslation();
  return (
    <span className="filings-company">
      <span className="filings-name">
        {line.name}
        {line.demo && <span className="badge filings-demo">{t('dashboard.filings.demoBadge')}</span>}
      </span>
      <span className="filings-codes">
        {line.codes.map((code) => (
          <span key={code}>{code}</span>
        ))}
      </span>
    </span>
  );
}

/** The input once typing has paused. */
function useTypingPause(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}
