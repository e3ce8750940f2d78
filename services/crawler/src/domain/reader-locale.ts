/** The account's language and time zone, as the check or preview carried them ('' when unknown). */
export interface Reader {
  lang: string;
  timeZone: string;
}

/** What the crawler presents to a site so it localises as for the person's own browser. */
export interface PresentedLocale {
  /** BCP 47 tag for the browser's locale (navigator.language, Intl defaults). */
  locale: string;
  acceptLanguage: string;
  /** An IANA zone this runtime knows; absent when the reader's zone is unknown or empty. */
  timeZone?: string;
}

// A Japanese reader still understands a page in English better than one in a third language.
const JAPANESE = { locale: 'ja-JP', acceptLanguage: 'ja-JP,ja;q=0.9,en;q=0.8' };
const LANGUAGES: Record<string, Omit<PresentedLocale, 'timeZone'>> = {
  ja: JAPANESE,
  en: { locale: 'en-US', acceptLanguage: 'en-US,en;q=0.9' },
};

/**
 * The locale to present for a reader, or undefined when the reader has neither a language nor a
 * time zone (the crawler's defaults apply). An unknown zone is left out rather than failing
 * the check: the browser refuses a context with a zone it does not know.
 */
export function presentedLocale(reader: Reader | undefined): PresentedLocale | undefined {
  if (!reader) return undefined;
  const language = LANGUAGES[reader.lang];
  const timeZone = knownZone(reader.timeZone);
  if (!language && !timeZone) return undefined;
  // An account's language defaults to Japanese (the account service's default too).
  return { ...(language ?? JAPANESE), ...(timeZone ? { timeZone } : {}) };
}

function knownZone(zone: string): string | undefined {
  if (!zone) return undefined;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
