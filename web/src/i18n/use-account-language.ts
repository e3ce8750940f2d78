import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { languageFromTag } from './language.ts';

/**
 * A signed-in user sees the language saved on their account. It is applied when it first
 * arrives or changes on the account, so a footer switch still holds for the rest of the visit.
 */
export function useAccountLanguage(accountLanguage: string | undefined): void {
  const { i18n } = useTranslation();
  useEffect(() => {
    if (accountLanguage) void i18n.changeLanguage(languageFromTag(accountLanguage));
  }, [accountLanguage, i18n]);
}
