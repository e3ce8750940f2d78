import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en, ja } from './catalogue.ts';
import type { Language } from './language.ts';

const resources = {
  ja: { translation: ja },
  en: { translation: en },
} as const;

/** Starts i18next with both catalogues bundled and keeps `<html lang>` in step with the language. */
export function startI18n(language: Language) {
  i18next.on('languageChanged', (current) => {
    document.documentElement.lang = current;
  });
  return i18next.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'ja',
    initAsync: false,
    interpolation: { escapeValue: false },
  });
}
