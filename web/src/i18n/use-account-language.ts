import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { languageFromTag, screenLanguageChoice } from './language.ts';

/**
 * A signed-in user sees the language chosen for the screen in this browser (the footer's switch),
 * else the one saved on their account. It is applied when the account's language first arrives or
 * changes; saving a language to the account makes it this browser's choice too, so the screen
 * follows it.
 */
export function useAccountLanguage(accountLanguage: string | undefined): void {
  const { i18n } = useTranslation();
  useEffect(() => {
    if (accountLanguage) void i18n.changeLanguage(screenLanguageChoice() ?? languageFromTag(accountLanguage));
  }, [accountLanguage, i18n]);
}
