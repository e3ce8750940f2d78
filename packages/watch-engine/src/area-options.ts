/** The options of one monitoring area (docs/product.md#areas). */
export interface AreaOptions {
  /** Compare the visible text (true) or the markup (false). */
  readonly stripTags: boolean;
  readonly excludeDates: boolean;
  readonly excludeTimes: boolean;
  readonly excludeNumbers: boolean;
  /** Only new information counts as an update: removals and reorders alone are not updates. */
  readonly addOnly: boolean;
  readonly excludeWords: readonly string[];
  /** Patterns in Python `re` syntax, run on RE2; each match is removed from the compared text. */
  readonly excludeRegexes: readonly string[];
  /** A word that only moved (removed in one place, added in another) is not an update. */
  readonly allowSameWords: boolean;
  /** New content equal to one of the last `count` update versions is not an update. */
  readonly excludeSameAsPast: { readonly enabled: boolean; readonly count: number };
  /**
   * CSS selectors of elements inside the area whose text is not compared (picked in the wizard, or
   * typed): matched within the area's markup, `:scope` being the area's element. The crawler paints
   * the same elements over in screenshots.
   */
  readonly excludeElements: readonly string[];
}

export const DEFAULT_AREA_OPTIONS: AreaOptions = {
  stripTags: true,
  excludeDates: false,
  excludeTimes: false,
  excludeNumbers: false,
  addOnly: false,
  excludeWords: [],
  excludeRegexes: [],
  allowSameWords: false,
  excludeSameAsPast: { enabled: false, count: 0 },
  excludeElements: [],
};

export const AREA_OPTION_LIMITS = {
  excludeWords: 100,
  wordLength: 200,
  excludeRegexes: 20,
  pastUpdates: 100,
  excludeElements: 20,
  selectorLength: 500,
} as const;
