import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DiscordState } from '../api/account.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { useLinkDiscord, useUnlinkDiscord } from '../hooks/use-account.ts';
import { AccountSection } from './account-section.tsx';

/** The account-wide chat link: a Discord webhook, tested when linked (four link states, docs/product.md#account). */
export function DiscordSection({ state }: { state: DiscordState }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const link = useLinkDiscord();
  const unlink = useUnlinkDiscord();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [url, setUrl] = useState('');
  const shownState: DiscordState = link.isPending ? 'linking' : state;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    link.mutate(url.trim(), { onSuccess: () => setUrl(''), onSettled: focusResult });
  };
  const urlError = errorCode(link.error) === 'invalid_discord_webhook' ? errorText(link.error) : undefined;
  return (
    <AccountSection id="discord" title={t('account.discord')}>
      <form ref={container} className="form inline-form" noValidate onSubmit={submit}>
        <p className="lead">{t('account.discordLead')}</p>
        <p className="current-value">
          <span className="field-label">{t('account.discordState')}</span>{' '}
          <span className={`badge discord-${shownState}`} data-testid="discord-state">
            {t(`account.discordStates.${shownState}`)}
          </span>
        </p>
        {link.isError && !urlError && <FormMessage tone="error" message={errorText(link.error)} />}
        {unlink.isError && <FormMessage tone="error" message={errorText(unlink.error)} />}
        <TextField
          id="account-discord-url"
          label={t('account.discordUrl')}
          type="url"
          autoComplete="off"
          value={url}
          onChange={setUrl}
          error={urlError}
        />
        <div className="button-row">
          <button type="submit" className="button" disabled={link.isPending || url.trim() === ''}>
            {t('account.discordLink')}
          </button>
          {state !== 'not_set' && (
            <button
              type="button"
              className="button"
              disabled={unlink.isPending}
              onClick={() => unlink.mutate(undefined)}
            >
              {t('account.discordUnlink')}
            </button>
          )}
        </div>
      </form>
    </AccountSection>
  );
}
