import { describe, expect, it } from 'vitest';
import { en, ja } from './catalogue.ts';

type Tree = { [key: string]: string | Tree };

/** Every text of a catalogue by its dotted key. */
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const texts = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') texts.set(path, value);
    else for (const [inner, text] of flatten(value, path)) texts.set(inner, text);
  }
  return texts;
}

const jaTexts = flatten(ja as unknown as Tree);
const enTexts = flatten(en as unknown as Tree);

// Japanese has one plural form (_other) and English two (_one, _other): a key is the same key
// whichever plural suffixes each language gives it.
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const baseKeys = (texts: Map<string, string>) =>
  [...new Set([...texts.keys()].map((key) => key.replace(PLURAL_SUFFIX, '')))].sort();

/** Hiragana, katakana, CJK ideographs and full-width forms. */
const JAPANESE = /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/;
/** Each language's own name is written in that language in the switch (with its lang attribute). */
const WRITTEN_IN_ITS_OWN_LANGUAGE = new Set(['languages.ja']);

/** Words left in a text that was never written. */
const UNFINISHED = /\b(TODO|TBD|FIXME|lorem ipsum)\b/i;

/** `{{name}}` placeholders; a plural form may leave out its count ("Every minute"). */
const placeholders = (key: string, text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)/g)]
    .map((match) => match[1])
    .filter((name) => !(PLURAL_SUFFIX.test(key) && name === 'count'))
    .sort();

/**
 * Messages (docs/product.md#screens) of the screens of issue 7 and the filings section (issue 16),
 * each with the key that carries it. Left out, because their screens come with their own issues:
 * card info and card update errors, unsubscription failure.
 */
const FAILURE_MESSAGES: readonly [message: string, key: string][] = [
  ['Site list load failure: could not load the monitoring page, reload', 'dashboard.sites.loadFailed'],
  ['Pause failure: could not pause', 'dashboard.actions.pauseFailed'],
  ['Resume failure: could not resume', 'dashboard.actions.resumeFailed'],
  ['Delete failure: could not delete', 'dashboard.actions.deleteFailed'],
  ['Success: monitoring paused', 'dashboard.actions.paused'],
  ['Success: monitoring resumed', 'dashboard.actions.resumed'],
  ['Success: deleted', 'dashboard.actions.deleted'],
  ['Delete confirmation: delete the site? this cannot be undone', 'dashboard.actions.confirmDelete'],
  ['Site detail pause failure', 'siteDetail.pauseFailed'],
  ['Site detail resume failure', 'siteDetail.resumeFailed'],
  ['Site detail delete failure', 'siteDetail.deleteFailed'],
  ['Site detail delete confirmation', 'siteDetail.confirmDelete'],
  ['User info load failure: could not load user info, reload', 'messages.userInfoLoadFailed'],
  ['User info load failure: close button', 'actions.close'],
  ['User info load failure: reload button', 'actions.reload'],
  ['Logout failure: could not log out', 'messages.signOutFailed'],
  ['Timezone list failure: could not get timezone info (account)', 'account.timezoneFailed'],
  ['Timezone list failure: could not get timezone info (dashboard picker)', 'dashboard.timezone.loadFailed'],
  ['Timezone list failure: retry button', 'actions.retry'],
  ['Timezone save failure: could not process', 'errors.timezone_save_failed'],
  ['Timezone save failure in the dashboard picker', 'dashboard.timezone.saveFailed'],
  ['Script chunk load failure', 'messages.chunkLoadFailed'],
  [
    'Subscription renewal failed; finish by the time limit or the account is held',
    'dashboard.subscription.renewalFailed',
  ],
  ['Account on hold', 'dashboard.subscription.onHold'],
  ['Communication with the server failed (retry)', 'errors.network'],
  ['URL could not be reached (404)', 'errors.http_status'],
  ['Site unsupported', 'errors.blocked_by_robot'],
  ['Access timeout for all or part of the target (check history)', 'errors.timeout'],
  ['Failure alert on persistent errors, with since when', 'siteDetail.failingNotice'],
  ['Site info could not be fetched', 'siteDetail.loadFailed'],
  ['Element not found (check selector or XPath)', 'errors.element_not_found'],
  ['Screenshot update failed', 'errors.screenshot_failed'],
  ['Login could not be supported on this site', 'errors.login_failed'],
  ['Reset request failed', 'errors.reset_request_failed'],
  ['Password reset failed', 'errors.reset_failed'],
  ['Area content empty (enlarge the area or untick tag removal)', 'errors.area_empty'],
  ['URL invalid or expired', 'errors.reset_link_invalid'],
  ['Could not reach the site', 'errors.unreachable'],
  // The registration wizard's own wording of the same messages.
  ['Wizard: URL could not be reached (404)', 'wizard.problems.notFound404'],
  ['Wizard: site unsupported, offer to be notified when supported', 'wizard.problems.unsupported'],
  ['Wizard: site info or area could not be fetched', 'wizard.problems.fetchFailed'],
  ['Wizard: element not found (check selector or XPath)', 'wizard.problems.elementNotFound'],
  ['Wizard: screenshot update failed', 'wizard.problems.screenshotUpdateFailed'],
  ['Wizard: deselect failed', 'wizard.areas.deselectFailed'],
  ['Wizard: login could not be supported on this site', 'wizard.problems.loginUnsupported'],
  [
    'Wizard: registration done but monitoring could not start (start from the dashboard)',
    'wizard.pausedForQuota',
  ],
  ['Wizard: timeout on step 5 (reload and restart)', 'wizard.problems.saveTimeout'],
  ['Wizard: could not reach the site', 'wizard.problems.unreachable'],
  ['Wizard: area content empty', 'wizard.content.empty'],
  ['Filing registration or deletion failure: could not register', 'dashboard.filings.registerFailed'],
  ['ISIN search with HTTP 429: try again in a few minutes', 'dashboard.filings.tooMany'],
  ['ISIN is 12 characters', 'dashboard.filings.isinLength'],
  ['ISIN is invalid', 'dashboard.filings.isinInvalid'],
  ['Not found.', 'dashboard.filings.notFound'],
];

describe('catalogues', () => {
  it('have the same keys in Japanese and English', () => {
    expect(baseKeys(enTexts)).toEqual(baseKeys(jaTexts));
  });

  it('have no empty text, no text that is just its key and no placeholder text', () => {
    const unfinished = [...jaTexts, ...enTexts]
      .filter(([key, text]) => text.trim() === '' || text === key || UNFINISHED.test(text))
      .map(([key, text]) => `${key}: ${text}`);
    expect(unfinished).toEqual([]);
  });

  it('write English without Japanese characters', () => {
    const japaneseInEnglish = [...enTexts]
      .filter(([key, text]) => !WRITTEN_IN_ITS_OWN_LANGUAGE.has(key) && JAPANESE.test(text))
      .map(([key, text]) => `${key}: ${text}`);
    expect(japaneseInEnglish).toEqual([]);
  });

  it('use the same placeholders in both languages', () => {
    const differing = [...jaTexts]
      .filter(([key, text]) => {
        const english = enTexts.get(key) ?? enTexts.get(`${key.replace(PLURAL_SUFFIX, '')}_other`);
        return english !== undefined && placeholders(key, english).join() !== placeholders(key, text).join();
      })
      .map(([key]) => key);
    expect(differing).toEqual([]);
  });

  it.each(FAILURE_MESSAGES)('carry the failure message "%s" in both languages (%s)', (_message, key) => {
    expect(jaTexts.get(key), `ja ${key}`).toBeTruthy();
    expect(enTexts.get(key), `en ${key}`).toBeTruthy();
  });
});
