/**
 * How every mail and chat message writes a moment (docs/product.md#dates-in-mails): in the
 * reader's time zone, one way per language, with the zone named —
 * "2026年12月6日 22:07（日本時間）" in Japanese, "Dec 6, 2026, 22:07 (UTC)" in English.
 * Update mails, failure alerts, billing mails and filings all write times here, so no two of
 * them write a date two ways.
 */
export function writtenTime(at: Date, timezone: string, lang: 'ja' | 'en'): string {
  const zone = readerZone(timezone, lang);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const { year, month, day, hour, minute } = parts;
  const name = zoneName(zone, lang, at);
  // The month's short English name is spelt here: Intl's differs between versions and locales
  // ("Sep" or "Sept").
  return lang === 'ja'
    ? `${year}年${month}月${day}日 ${hour}:${minute}（${name}）`
    : `${MONTHS[Number(month) - 1]} ${day}, ${year}, ${hour}:${minute} (${name})`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// The zone nearly every reader has, named as Japanese mail usually names it, and UTC by the
// name people use rather than "Coordinated Universal Time".
const PLAIN_NAMES: Record<string, { ja: string; en: string }> = {
  'Asia/Tokyo': { ja: '日本時間', en: 'Japan time' },
  UTC: { ja: 'UTC', en: 'UTC' },
  'Etc/UTC': { ja: 'UTC', en: 'UTC' },
  'Etc/GMT': { ja: 'UTC', en: 'UTC' },
};

/**
 * A zone's name in the reader's language: Intl's generic name ("米国東部時間", "Eastern Time"),
 * else its long one ("協定世界時"), else, for zones that are only an offset (the Etc/GMT zones
 * the sign-up sets from the browser's offset), the offset as "UTC+9" — never "Etc/GMT-9", whose
 * sign reads backwards.
 */
export function zoneName(zone: string, lang: 'ja' | 'en', at: Date): string {
  const plain = PLAIN_NAMES[zone];
  if (plain) return plain[lang];
  for (const style of ['longGeneric', 'long'] as const) {
    const name = intlZoneName(zone, lang, style, at);
    if (!name.startsWith('GMT')) return name;
  }
  const offset = intlZoneName(zone, 'en', 'shortOffset', at).replace(/^GMT/, '');
  return `UTC${offset}`;
}

function intlZoneName(
  zone: string,
  lang: string,
  style: 'longGeneric' | 'long' | 'shortOffset',
  at: Date,
): string {
  return (
    new Intl.DateTimeFormat(lang, { timeZone: zone, timeZoneName: style })
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value ?? 'GMT'
  );
}

/**
 * The zone a reader's times are written in: theirs when Intl knows it, else Japan's time for
 * Japanese and UTC for English (docs/product.md#time-zones).
 */
export function readerZone(timezone: string, lang: 'ja' | 'en'): string {
  return knownZone(timezone) ?? (lang === 'ja' ? 'Asia/Tokyo' : 'UTC');
}

function knownZone(timezone: string): string | null {
  if (!timezone) return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return timezone;
  } catch {
    return null;
  }
}
