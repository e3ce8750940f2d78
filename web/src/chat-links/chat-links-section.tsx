import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AccountSection } from '../account/account-section.tsx';
import { FormMessage } from '../forms/form-message.tsx';
import { useErrorText } from '../forms/use-error-text.ts';
import { ChatLinksPanel } from './chat-links-panel.tsx';

const PLATFORMS = new Set(['slack', 'teams', 'line', 'chatwork', 'telegram']);

/**
 * The account screen's chat links, and what an OAuth return said (`?chat_linked=<platform>` or
 * `?chat_link_error=<code>`, set by the gateway's /chat/oauth/<platform>/callback).
 */
export function ChatLinksSection() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [params, setParams] = useSearchParams();
  const [returned] = useState(() => ({
    linked: params.get('chat_linked') ?? '',
    error: params.get('chat_link_error') ?? '',
  }));
  useEffect(() => {
    if (!params.has('chat_linked') && !params.has('chat_link_error')) return;
    const next = new URLSearchParams(params);
    next.delete('chat_linked');
    next.delete('chat_link_error');
    setParams(next, { replace: true });
  }, [params, setParams]);
  return (
    <AccountSection id="chat-links" title={t('chatLinks.title')}>
      {PLATFORMS.has(returned.linked) && (
        <FormMessage
          tone="success"
          message={t('chatLinks.linked', {
            platform: t(`chatLinks.platforms.${returned.linked as 'slack'}`),
          })}
        />
      )}
      {returned.error && <FormMessage tone="error" message={errorText(returned.error)} />}
      <ChatLinksPanel targetId="" />
    </AccountSection>
  );
}
