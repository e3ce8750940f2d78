export const LANGUAGES = ['ja', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

const CHOICE_STORAGE_KEY = 'mimamori.language';

/** Japanese is the default; English is chosen only for tags that start with `en`. */
export function languageFromTag(tag: string | null | undefined): Language {
  return tag?.toLowerCase().startsWith('en') ? 'en' : 'ja';
}

/** A signed-out visitor's language: their earlier choice in the footer, else the browser's language. */
export function visitorLanguage(): Language {
  const choice = screenLanguageChoice();
  return choice ?? languageFromTag(navigator.language);
}

/**
 * The screen language chosen in this browser (the footer's switch), if any. It changes the screens
 * only: a signed-in user's account language, which their mails are written in, stays as saved.
 */
export function screenLanguageChoice(): Language | undefined {
  try {
    const stored = localStorage.getItem(CHOICE_STORAGE_KEY);
    return LANGUAGES.find((language) => language === stored);
  } catch {
    return undefined;
  }
}

export function rememberLanguageChoice(language: Language): void {
  try {
    localStorage.setItem(CHOICE_STORAGE_KEY, language);
  } catch {
    // Storage can be disabled (private mode, policies); the choice then lasts for this page only.
  }
}
