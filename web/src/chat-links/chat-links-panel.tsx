import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  ChatLink,
  ChatLinkStarted,
  ChatLinkTestResult,
  ChatPlatform,
  ChatPlatformOffer,
} from '../api/chat-links.ts';
import { ApiError } from '../api/client.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import {
  useChatLinks,
  useDeleteChatLink,
  useLinkChatByFields,
  useStartChatLink,
  useTestChatLink,
} from '../hooks/use-chat-links.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { brokenReasonKey } from './broken-reason.ts';
import './chat-links.css';

/** How often the list is read while a code link waits for the chat to send the code. */
const WAITING_POLL_MS = 2_000;

/** A link being added or relinked: its platform, and the broken link it replaces. */
interface Adding {
  platform: ChatPlatform;
  relinkId: string;
}

/**
 * Chat links (docs/product.md#chat-links): the account-wide ones (targetId '') on the account
 * screen, a site's own on its detail page. Each platform links its own way: pasted fields
 * (Chatwork, Teams), a one-time code sent from the chat (LINE, Telegram), or the platform's
 * consent page (Slack). A broken link says why and offers to link it again.
 */
export function ChatLinksPanel({ targetId }: { targetId: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [adding, setAdding] = useState<Adding | null>(null);
  const [waiting, setWaiting] = useState<{
    platform: ChatPlatform;
    started: ChatLinkStarted;
    known: Set<string>;
    relinkId: string;
  } | null>(null);
  const list = useChatLinks({ waitingMs: waiting ? WAITING_POLL_MS : false });
  const idPrefix = targetId ? 'site-chat' : 'account-chat';
  const links = (list.data?.links ?? []).filter((link) => link.target_id === targetId);
  const platforms = list.data?.platforms ?? [];
  const offer = adding ? platforms.find((candidate) => candidate.platform === adding.platform) : undefined;

  // A code link is done when the list shows a link it did not have (or the relinked one linked again).
  const arrived = waiting
    ? links.find((link) =>
        waiting.relinkId
          ? link.id === waiting.relinkId && link.status === 'linked'
          : !waiting.known.has(link.id),
      )
    : undefined;
  useEffect(() => {
    if (arrived) {
      setWaiting(null);
      setAdding(null);
    }
  }, [arrived]);

  return (
    <div className="chat-links-panel" data-testid={`${idPrefix}-links`}>
      <p className="lead">{t(targetId ? 'chatLinks.siteLead' : 'chatLinks.accountLead')}</p>
      {list.isPending && <LoadingIndicator />}
      {list.isError && <FormMessage tone="error" message={errorText(list.error)} />}
      {list.isSuccess && links.length === 0 && <p className="muted">{t('chatLinks.none')}</p>}
      {links.length > 0 && (
        <ul className="chat-link-list">
          {links.map((link) => (
            <ChatLinkRow
              key={link.id}
              link={link}
              onRelink={() => setAdding({ platform: link.platform, relinkId: link.id })}
            />
          ))}
        </ul>
      )}
      {waiting ? (
        <CodeWaiting
          platform={waiting.platform}
          started={waiting.started}
          onCancel={() => setWaiting(null)}
        />
      ) : adding && offer ? (
        <AddForm
          offer={offer}
          targetId={targetId}
          relinkId={adding.relinkId}
          idPrefix={idPrefix}
          onDone={() => setAdding(null)}
          onWaiting={(started) =>
            setWaiting({
              platform: offer.platform,
              started,
              known: new Set(links.map((link) => link.id)),
              relinkId: adding.relinkId,
            })
          }
        />
      ) : (
        list.isSuccess && (
          <PlatformPicker
            platforms={platforms}
            idPrefix={idPrefix}
            full={(list.data?.links.length ?? 0) >= (list.data?.max_links ?? 0)}
            onPick={(platform) => setAdding({ platform, relinkId: '' })}
          />
        )
      )}
    </div>
  );
}

function PlatformPicker({
  platforms,
  idPrefix,
  full,
  onPick,
}: {
  platforms: ChatPlatformOffer[];
  idPrefix: string;
  full: boolean;
  onPick: (platform: ChatPlatform) => void;
}) {
  const { t } = useTranslation();
  const [platform, setPlatform] = useState<ChatPlatform | ''>('');
  if (platforms.length === 0) return <p className="muted">{t('chatLinks.noPlatforms')}</p>;
  if (full) return <p className="muted">{t('errors.chat_link_quota_exceeded')}</p>;
  return (
    <div className="chat-link-add">
      <div className="field">
        <label htmlFor={`${idPrefix}-platform`} className="field-label">
          {t('chatLinks.platform')}
        </label>
        <select
          id={`${idPrefix}-platform`}
          className="input"
          value={platform}
          onChange={(event) => setPlatform(event.target.value as ChatPlatform | '')}
        >
          <option value="">{t('chatLinks.choose')}</option>
          {platforms.map((offer) => (
            <option key={offer.platform} value={offer.platform}>
              {t(`chatLinks.platforms.${offer.platform}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="button-row">
        <button
          type="button"
          className="button"
          disabled={platform === ''}
          onClick={() => platform && onPick(platform)}
        >
          {t('chatLinks.add')}
        </button>
      </div>
    </div>
  );
}

function AddForm({
  offer,
  targetId,
  relinkId,
  idPrefix,
  onDone,
  onWaiting,
}: {
  offer: ChatPlatformOffer;
  targetId: string;
  relinkId: string;
  idPrefix: string;
  onDone: () => void;
  onWaiting: (started: ChatLinkStarted) => void;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const link = useLinkChatByFields();
  const start = useStartChatLink();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [values, setValues] = useState<Record<string, string>>({});
  const name = t(`chatLinks.platforms.${offer.platform}`);
  const failed = link.error ?? start.error;
  // A pasted value the platform refused is shown under its field; the rest above the form.
  const fieldError = (field: string) =>
    failed instanceof ApiError && failed.field === field ? refusalText(failed) : undefined;
  const refusalText = (error: ApiError) =>
    i18n.exists(error.messageKey) ? errorText(error) : t('errors.chat_field_invalid');
  const formError =
    failed &&
    !(failed instanceof ApiError && failed.field && offer.fields.some((field) => field.name === failed.field))
      ? failed instanceof ApiError
        ? refusalText(failed)
        : errorText(failed)
      : undefined;
  const label = (field: string) => {
    const key = `chatLinks.fields.${offer.platform}.${field}`;
    return i18n.exists(key) ? String(t(key as 'chatLinks.platform')) : field;
  };
  const hint = (field: string) => {
    const key = `chatLinks.hints.${offer.platform}.${field}`;
    return i18n.exists(key) ? String(t(key as 'chatLinks.platform')) : undefined;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (offer.linking === 'fields') {
      const fields = Object.fromEntries(
        offer.fields.map((field) => [field.name, (values[field.name] ?? '').trim()]),
      );
      link.mutate(
        { platform: offer.platform, targetId, fields, relinkId },
        { onSuccess: onDone, onSettled: focusResult },
      );
      return;
    }
    start.mutate(
      { platform: offer.platform, targetId, relinkId },
      {
        onSuccess: (started) => {
          // The consent page brings the browser back to /chat/oauth/<platform>/callback.
          if (offer.linking === 'oauth') window.location.assign(started.authorize_url);
          else onWaiting(started);
        },
        onSettled: focusResult,
      },
    );
  };
  const busy = link.isPending || start.isPending;
  const complete = offer.fields.every((field) => (values[field.name] ?? '').trim() !== '');

  return (
    <form ref={container} className="form chat-link-form" noValidate onSubmit={submit}>
      <p className="chat-link-form-title">
        {t(relinkId ? 'chatLinks.relinkTitle' : 'chatLinks.addTitle', { platform: name })}
      </p>
      <p className="muted">{t(`chatLinks.how.${offer.linking}`, { platform: name })}</p>
      {formError && <FormMessage tone="error" message={formError} />}
      {offer.linking === 'fields' &&
        offer.fields.map((field) => (
          <TextField
            key={field.name}
            id={`${idPrefix}-${offer.platform}-${field.name}`}
            label={label(field.name)}
            hint={hint(field.name)}
            type={field.secret ? 'password' : 'text'}
            autoComplete="off"
            value={values[field.name] ?? ''}
            onChange={(value) => setValues((current) => ({ ...current, [field.name]: value }))}
            error={fieldError(field.name)}
          />
        ))}
      <div className="button-row">
        <button
          type="submit"
          className="button primary"
          disabled={busy || (offer.linking === 'fields' && !complete)}
        >
          {busy
            ? t('chatLinks.linking')
            : offer.linking === 'oauth'
              ? t('chatLinks.addTo', { platform: name })
              : offer.linking === 'code'
                ? t('chatLinks.getCode')
                : t('chatLinks.link')}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {t('chatLinks.cancel')}
        </button>
      </div>
    </form>
  );
}

/** The code to send from the chat, its deep link, and a waiting state until the platform brings it back. */
function CodeWaiting({
  platform,
  started,
  onCancel,
}: {
  platform: ChatPlatform;
  started: ChatLinkStarted;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  // What to do in this platform's app (befriend the account and send the code; press Start).
  const howKey = `chatLinks.codeHow.${platform}`;
  const how = i18n.exists(howKey) ? String(t(howKey as 'chatLinks.codeLead')) : t('chatLinks.codeLead');
  return (
    <div className="chat-link-code" role="status" data-testid="chat-link-code">
      <p className="chat-link-form-title">{t('chatLinks.codeTitle')}</p>
      <p>{how}</p>
      <code className="chat-link-code-value">{started.code}</code>
      {started.start_url && (
        <p>
          <a className="button primary" href={started.start_url} target="_blank" rel="noreferrer">
            {t('chatLinks.openChat')}
          </a>
        </p>
      )}
      <p className="muted">
        <span className="chat-link-spinner" aria-hidden="true" /> {t('chatLinks.waiting')}
      </p>
      <div className="button-row">
        <button type="button" className="button" onClick={onCancel}>
          {t('chatLinks.cancel')}
        </button>
      </div>
    </div>
  );
}

function ChatLinkRow({ link, onRelink }: { link: ChatLink; onRelink: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const test = useTestChatLink();
  const remove = useDeleteChatLink();
  const [confirming, setConfirming] = useState(false);
  const failed = [test, remove].find((action) => action.isError);
  const broken = link.status === 'broken';
  return (
    <li
      className={`chat-link-row ${broken ? 'broken' : ''}`}
      data-testid="chat-link-row"
      data-platform={link.platform}
    >
      <div className="chat-link-head">
        <span className="chat-link-platform">{t(`chatLinks.platforms.${link.platform}`)}</span>
        <span className="chat-link-label">{link.label}</span>
        <span className={`badge chat-link-${link.status}`} data-testid="chat-link-status">
          {t(`chatLinks.status.${link.status}`)}
        </span>
      </div>
      <p className="muted chat-link-scope">
        {t(link.target_id ? 'chatLinks.scopeSite' : 'chatLinks.scopeAccount')}
      </p>
      {broken && (
        <p className="chat-link-broken-reason" data-testid="chat-link-broken-reason">
          {t('chatLinks.brokenBecause', { reason: t(brokenReasonKey(link.broken_reason)) })}
        </p>
      )}
      <div className="button-row">
        {broken ? (
          <button type="button" className="button small primary" onClick={onRelink}>
            {t('chatLinks.relink')}
          </button>
        ) : (
          <button
            type="button"
            className="button small"
            disabled={test.isPending}
            onClick={() => test.mutate(link.id)}
          >
            {test.isPending ? t('chatLinks.testing') : t('chatLinks.test')}
          </button>
        )}
        {confirming ? (
          <>
            <button
              type="button"
              className="button small danger-solid"
              disabled={remove.isPending}
              onClick={() => remove.mutate(link.id)}
            >
              {t('chatLinks.confirmDelete')}
            </button>
            <button type="button" className="button small" onClick={() => setConfirming(false)}>
              {t('chatLinks.keep')}
            </button>
          </>
        ) : (
          <button type="button" className="button small danger" onClick={() => setConfirming(true)}>
            {t('chatLinks.delete')}
          </button>
        )}
      </div>
      {failed && <FormMessage tone="error" message={errorText(failed.error)} />}
      {test.data && <TestAnswer result={test.data} />}
    </li>
  );
}

function TestAnswer({ result }: { result: ChatLinkTestResult }) {
  const { t } = useTranslation();
  return (
    <div
      className={`chat-link-test ${result.outcome === 'sent' ? 'ok' : 'not-ok'}`}
      role="status"
      data-testid="chat-link-test"
    >
      <p className="chat-link-test-summary">{t(`chatLinks.testOutcomes.${result.outcome}`)}</p>
    </div>
  );
}
