import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Webhook, WebhookTestResult, WebhookWithSecret } from '../api/webhooks.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRotateWebhookSecret,
  useTestWebhook,
  useWebhooks,
} from '../hooks/use-webhooks.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import './webhooks.css';

// Refusals that are about the URL typed, shown under the field rather than above the form.
const URL_PROBLEMS = new Set([
  'invalid_webhook_url',
  'webhook_address_forbidden',
  'webhook_address_unreachable',
]);

/**
 * Signed webhooks (docs/product.md#webhooks): the account-wide ones (targetId '') on the account
 * screen, a site's own on its detail page. A new or rotated signing secret is shown once, here.
 */
export function WebhooksPanel({ targetId }: { targetId: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const webhooks = useWebhooks();
  const create = useCreateWebhook();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [url, setUrl] = useState('');
  const [shownSecret, setShownSecret] = useState<WebhookWithSecret | null>(null);
  const idPrefix = targetId ? 'site-webhook' : 'account-webhook';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { url: url.trim(), targetId },
      {
        onSuccess: (made) => {
          setUrl('');
          setShownSecret(made);
        },
        onSettled: focusResult,
      },
    );
  };
  const code = errorCode(create.error);
  const urlError = code && URL_PROBLEMS.has(code) ? errorText(create.error) : undefined;
  const mine = (webhooks.data?.webhooks ?? []).filter((webhook) => webhook.target_id === targetId);
  const tryUrl = webhooks.data?.try_url ?? null;

  return (
    <div className="webhooks-panel" data-testid={`${idPrefix}s`}>
      <p className="lead">{t(targetId ? 'webhooks.siteLead' : 'webhooks.accountLead')}</p>
      <p className="webhooks-how muted">{t('webhooks.how')}</p>
      {shownSecret && <SecretOnce made={shownSecret} onClose={() => setShownSecret(null)} />}
      {webhooks.isPending && <LoadingIndicator />}
      {webhooks.isError && <FormMessage tone="error" message={errorText(webhooks.error)} />}
      {webhooks.isSuccess && mine.length === 0 && <p className="muted">{t('webhooks.none')}</p>}
      {mine.length > 0 && (
        <ul className="webhook-list">
          {mine.map((webhook) => (
            <WebhookRow key={webhook.id} webhook={webhook} onSecret={setShownSecret} />
          ))}
        </ul>
      )}
      <form ref={container} className="form webhook-add" noValidate onSubmit={submit}>
        {create.isError && !urlError && <FormMessage tone="error" message={errorText(create.error)} />}
        <TextField
          id={`${idPrefix}-url`}
          label={t('webhooks.url')}
          hint={t('webhooks.urlHint')}
          type="url"
          autoComplete="off"
          value={url}
          onChange={setUrl}
          error={urlError}
        />
        {tryUrl && (
          <div className="webhook-try muted" data-testid="webhook-try">
            <p>
              {t('webhooks.tryLocal')} <code>{tryUrl}</code>
            </p>
            <p>
              <button type="button" className="button small" onClick={() => setUrl(tryUrl)}>
                {t('webhooks.tryUse')}
              </button>{' '}
              <a href={new URL('/dev/webhooks', tryUrl).pathname} target="_blank" rel="noreferrer">
                {t('webhooks.tryPage')}
              </a>
            </p>
          </div>
        )}
        <div className="button-row">
          <button type="submit" className="button" disabled={create.isPending || url.trim() === ''}>
            {t('webhooks.add')}
          </button>
        </div>
      </form>
    </div>
  );
}

function WebhookRow({
  webhook,
  onSecret,
}: {
  webhook: Webhook;
  onSecret: (made: WebhookWithSecret) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const test = useTestWebhook();
  const rotate = useRotateWebhookSecret();
  const remove = useDeleteWebhook();
  const [confirming, setConfirming] = useState(false);
  const failed = [test, rotate, remove].find((action) => action.isError);
  return (
    <li className="webhook-row" data-testid="webhook-row">
      <code className="webhook-url">{webhook.url}</code>
      <div className="button-row">
        <button
          type="button"
          className="button small"
          disabled={test.isPending}
          onClick={() => test.mutate(webhook.id)}
        >
          {test.isPending ? t('webhooks.testing') : t('webhooks.test')}
        </button>
        <button
          type="button"
          className="button small"
          disabled={rotate.isPending}
          onClick={() => rotate.mutate(webhook.id, { onSuccess: onSecret })}
        >
          {t('webhooks.rotate')}
        </button>
        {confirming ? (
          <>
            <button
              type="button"
              className="button small danger-solid"
              disabled={remove.isPending}
              onClick={() => remove.mutate(webhook.id)}
            >
              {t('webhooks.confirmDelete')}
            </button>
            <button type="button" className="button small" onClick={() => setConfirming(false)}>
              {t('webhooks.keep')}
            </button>
          </>
        ) : (
          <button type="button" className="button small danger" onClick={() => setConfirming(true)}>
            {t('webhooks.delete')}
          </button>
        )}
      </div>
      {failed && <FormMessage tone="error" message={errorText(failed.error)} />}
      {test.data && <TestAnswer result={test.data} />}
    </li>
  );
}

function TestAnswer({ result }: { result: WebhookTestResult }) {
  const { t } = useTranslation();
  const delivered = result.outcome === 'answered' && result.status >= 200 && result.status < 300;
  const summary =
    result.outcome === 'answered'
      ? t(delivered ? 'webhooks.answeredOk' : 'webhooks.answeredNotOk', { status: result.status })
      : t(result.outcome === 'refused' ? 'webhooks.refused' : 'webhooks.unreachable');
  return (
    <div className={`webhook-test ${delivered ? 'ok' : 'not-ok'}`} role="status" data-testid="webhook-test">
      <p className="webhook-test-summary">{summary}</p>
      {result.outcome === 'answered' && result.body_excerpt && (
        <>
          <p className="field-label">{t('webhooks.answerBody')}</p>
          <pre className="webhook-test-body">{result.body_excerpt}</pre>
        </>
      )}
      {result.outcome !== 'answered' && result.reason && <p className="muted">{result.reason}</p>}
    </div>
  );
}

function SecretOnce({ made, onClose }: { made: WebhookWithSecret; onClose: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(made.secret).then(() => setCopied(true));
  };
  return (
    <div className="webhook-secret" role="status" data-testid="webhook-secret">
      <p className="webhook-secret-title">{t('webhooks.secretTitle')}</p>
      <p className="muted">{t('webhooks.secretOnce', { url: made.webhook.url })}</p>
      <code className="webhook-secret-value">{made.secret}</code>
      <div className="button-row">
        <button type="button" className="button small" onClick={copy}>
          {copied ? t('webhooks.copied') : t('webhooks.copy')}
        </button>
        <button type="button" className="button small" onClick={onClose}>
          {t('webhooks.secretSaved')}
        </button>
      </div>
    </div>
  );
}
