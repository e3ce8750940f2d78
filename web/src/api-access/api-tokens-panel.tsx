import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiToken, ApiTokenScope, ApiTokenWithSecret } from '../api/api-access.ts';
import { formatDateTime } from '../dashboard/target-time.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../hooks/use-api-access.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import { CopyButton } from './copy-button.tsx';
import './api-access.css';

/** The expiries offered (docs/api.md); the API takes any number of days from 1 to 366. */
const EXPIRY_DAYS = [7, 30, 90, 365] as const;
const SCOPES: readonly ApiTokenScope[] = ['read', 'write'];

/**
 * Personal access tokens for the API (docs/api.md): made with a name, scopes and an expiry, the
 * secret shown once, listed with when each was last used, revoked for good.
 */
export function ApiTokensPanel({ timeZone }: { timeZone: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Set<ApiTokenScope>>(new Set(['read']));
  const [days, setDays] = useState<number>(30);
  const [made, setMade] = useState<ApiTokenWithSecret | null>(null);

  const notReady =
    name.trim() === '' ? t('apiAccess.needName') : scopes.size === 0 ? t('apiAccess.needScope') : '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (notReady) return;
    create.mutate(
      { name: name.trim(), scopes: SCOPES.filter((scope) => scopes.has(scope)), expiresInDays: days },
      {
        onSuccess: (answer) => {
          setName('');
          setMade(answer);
        },
        onSettled: focusResult,
      },
    );
  };
  const toggle = (scope: ApiTokenScope, on: boolean) =>
    setScopes((current) => {
      const next = new Set(current);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });
  const nameError =
    errorCode(create.error) === 'api_token_name_invalid' ? errorText(create.error) : undefined;

  return (
    <div className="api-access-panel" data-testid="api-tokens">
      <p className="lead">{t('apiAccess.tokensLead')}</p>
      <div className="api-access-how muted">
        <p>{t('apiAccess.tokensHow')}</p>
        <code className="api-access-value">Authorization: Bearer mmr_…</code>
        <p>
          <a href="/api/openapi.json">{t('apiAccess.openApi')}</a>
        </p>
      </div>
      {made && <SecretOnce made={made} onClose={() => setMade(null)} />}
      {tokens.isPending && <LoadingIndicator />}
      {tokens.isError && <FormMessage tone="error" message={errorText(tokens.error)} />}
      {tokens.isSuccess && tokens.data.length === 0 && <p className="muted">{t('apiAccess.none')}</p>}
      {tokens.isSuccess && tokens.data.length > 0 && (
        <ul className="api-token-list">
          {tokens.data.map((token) => (
            <TokenRow key={token.id} token={token} timeZone={timeZone} />
          ))}
        </ul>
      )}
      <form ref={container} className="form api-token-add" noValidate onSubmit={submit}>
        <h3 className="api-access-subtitle">{t('apiAccess.newToken')}</h3>
        {create.isError && !nameError && <FormMessage tone="error" message={errorText(create.error)} />}
        <TextField
          id="api-token-name"
          label={t('apiAccess.name')}
          hint={t('apiAccess.nameHint')}
          autoComplete="off"
          value={name}
          onChange={setName}
          error={nameError}
        />
        <fieldset className="api-token-scopes">
          <legend className="field-label">{t('apiAccess.scopes')}</legend>
          {SCOPES.map((scope) => (
            <label key={scope} className="checkbox">
              <input
                type="checkbox"
                checked={scopes.has(scope)}
                onChange={(event) => toggle(scope, event.target.checked)}
              />
              <span>
                <span className="api-token-scope-name">{t(`apiAccess.scope.${scope}`)}</span>
                <span className="field-hint">{t(`apiAccess.scopeHint.${scope}`)}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="api-token-expiry" className="field-label">
            {t('apiAccess.expiry')}
          </label>
          <select
            id="api-token-expiry"
            className="input"
            value={days}
            onChange={(event) => setDays(Number(event.target.value))}
          >
            {EXPIRY_DAYS.map((count) => (
              <option key={count} value={count}>
                {t('apiAccess.days', { count })}
              </option>
            ))}
          </select>
        </div>
        <div className="button-row">
          <button
            type="submit"
            className="button primary"
            disabled={create.isPending || notReady !== ''}
            aria-describedby={notReady ? 'api-token-not-ready' : undefined}
          >
            {t('apiAccess.create')}
          </button>
          {notReady && (
            <p id="api-token-not-ready" className="field-hint api-token-not-ready">
              {notReady}
            </p>
          )}
        </div>
      </form>
    </div>
  );
}

function TokenRow({ token, timeZone }: { token: ApiToken; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const revoke = useRevokeApiToken();
  const [confirming, setConfirming] = useState(false);
  const when = (iso: string) => formatDateTime(iso, i18n.language, timeZone);
  const expired = new Date(token.expires_at).getTime() <= Date.now();
  return (
    <li className="api-token-row" data-testid="api-token-row">
      <div className="api-token-head">
        <span className="api-token-name">{token.name}</span>
        {token.scopes.map((scope) => (
          <span key={scope} className="api-token-badge">
            {t(`apiAccess.scope.${scope}`)}
          </span>
        ))}
        {expired && <span className="api-token-badge expired">{t('apiAccess.expiredBadge')}</span>}
      </div>
      <p className="api-token-times muted">
        {t(expired ? 'apiAccess.expired' : 'apiAccess.expires', { time: when(token.expires_at) })}
        {' · '}
        {token.last_used_at
          ? t('apiAccess.lastUsed', { time: when(token.last_used_at) })
          : t('apiAccess.neverUsed')}
      </p>
      <div className="button-row">
        {confirming ? (
          <>
            <button
              type="button"
              className="button small danger-solid"
              disabled={revoke.isPending}
              onClick={() => revoke.mutate(token.id)}
            >
              {t('apiAccess.confirmRevoke')}
            </button>
            <button type="button" className="button small" onClick={() => setConfirming(false)}>
              {t('apiAccess.keep')}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="button small danger"
            aria-label={t('apiAccess.revokeNamed', { name: token.name })}
            onClick={() => setConfirming(true)}
          >
            {t('apiAccess.revoke')}
          </button>
        )}
      </div>
      {revoke.isError && <FormMessage tone="error" message={errorText(revoke.error)} />}
    </li>
  );
}

function SecretOnce({ made, onClose }: { made: ApiTokenWithSecret; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="api-token-secret" role="status" data-testid="api-token-secret">
      <p className="api-token-secret-title">{t('apiAccess.secretTitle', { name: made.token.name })}</p>
      <p>{t('apiAccess.secretOnce')}</p>
      <code id="api-token-secret-value" className="api-access-value">
        {made.secret}
      </code>
      <div className="button-row">
        <CopyButton text={made.secret} describedBy="api-token-secret-value" />
        <button type="button" className="button small" onClick={onClose}>
          {t('apiAccess.secretSaved')}
        </button>
      </div>
    </div>
  );
}
