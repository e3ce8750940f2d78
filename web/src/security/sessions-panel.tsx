import { useTranslation } from 'react-i18next';
import type { SessionJson } from '../api/security.ts';
import { formatDateTime } from '../dashboard/target-time.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { useEndOtherSessions, useEndSession, useSessions } from '../hooks/use-security.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';

/** The account's sessions, this one first and marked; each other one can be ended, or all at once. */
export function SessionsPanel({ timeZone }: { timeZone: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const sessions = useSessions();
  const endOthers = useEndOtherSessions();

  if (sessions.isPending) return <LoadingIndicator />;
  if (sessions.isError) return <FormMessage tone="error" message={errorText(sessions.error)} />;
  const others = sessions.data.filter((session) => !session.current).length;
  return (
    <div className="security-panel" data-testid="sessions-panel">
      <p className="lead">{t('security.sessions.lead')}</p>
      {endOthers.isSuccess && others === 0 && (
        <FormMessage tone="success" message={t('security.sessions.othersEnded')} />
      )}
      {endOthers.isError && <FormMessage tone="error" message={errorText(endOthers.error)} />}
      <ul className="security-list">
        {sessions.data.map((session) => (
          <SessionRow key={session.id} session={session} timeZone={timeZone} />
        ))}
      </ul>
      {others > 0 ? (
        <div className="security-actions">
          <button
            type="button"
            className="button danger"
            disabled={endOthers.isPending}
            onClick={() => endOthers.mutate(undefined)}
          >
            {t('security.sessions.endOthers')}
          </button>
        </div>
      ) : (
        !endOthers.isSuccess && <p className="muted">{t('security.sessions.onlyThis')}</p>
      )}
    </div>
  );
}

function SessionRow({ session, timeZone }: { session: SessionJson; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const end = useEndSession();
  const at = (iso: string) => formatDateTime(iso, i18n.language, timeZone);
  const browser = session.browser || t('security.sessions.unknownBrowser');
  const device = session.os ? t('security.sessions.device', { browser, os: session.os }) : browser;
  return (
    <li className="security-row" data-testid="session-row" data-current={session.current || undefined}>
      <div className="security-row-main">
        <span className="security-row-name">
          {device}
          {session.current && <span className="badge badge-on">{t('security.sessions.current')}</span>}
        </span>
        <span className="muted">
          {session.client_address && t('security.sessions.address', { address: session.client_address })}
        </span>
        <span className="muted">{t('security.sessions.started', { at: at(session.created_at) })}</span>
        <span className="muted">{t('security.sessions.lastSeen', { at: at(session.last_seen_at) })}</span>
        {end.isError && <FormMessage tone="error" message={errorText(end.error)} />}
      </div>
      {!session.current && (
        <button
          type="button"
          className="button small danger"
          aria-label={t('security.sessions.endLabel', { device })}
          disabled={end.isPending}
          onClick={() => end.mutate(session.id)}
        >
          {t('security.sessions.end')}
        </button>
      )}
    </li>
  );
}
