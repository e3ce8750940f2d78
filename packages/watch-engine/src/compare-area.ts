import type { AreaOptions } from './area-options.ts';
import { type AreaDiff, diffArea, EMPTY_DIFF } from './diff/area-diff.ts';
import { type AreaSnapshot, extractAreaContent } from './normalise/extract-area-content.ts';
import {
  type AreaNormaliser,
  compactLines,
  contentHashOf,
  createAreaNormaliser,
  linesHaveCompactText,
} from './normalise/normalise-area.ts';
import { visibleTextPieces } from './normalise/visible-text.ts';

/** One watched area of a check, as the diff service hands it over. */
export interface AreaCheckInput {
  readonly areaId: string;
  readonly options: AreaOptions;
  /** What the crawler captured now; null when the area's element was not found on the page. */
  readonly current: AreaSnapshot | null;
  /** The version the last update recorded (what the person last saw); null on the first check. */
  readonly previous: AreaSnapshot | null;
  /** The last update versions, newest first; read when `excludeSameAsPast` is on. */
  readonly pastUpdates?: readonly AreaSnapshot[];
}

export type AreaErrorReason = 'area_not_found' | 'area_empty' | 'invalid_area_options';

/** Why content that differs is not an update, named after what decided it. */
export type NotCountedReason = 'whitespace_only' | 'add_only' | 'same_words' | 'same_as_past_update';

export type AreaResult =
  | {
      readonly areaId: string;
      readonly outcome: 'first_check' | 'unchanged' | 'updated';
      readonly contentHash: string;
      /** The normalised content: what was compared and what the diff shows. */
      readonly text: string;
      readonly diff: AreaDiff;
    }
  | {
      readonly areaId: string;
      readonly outcome: 'not_counted';
      readonly reason: NotCountedReason;
      readonly contentHash: string;
      readonly text: string;
      /** What changed, for the record; not an update, so nobody is notified of it. */
      readonly diff: AreaDiff;
    }
  | {
      readonly areaId: string;
      readonly outcome: 'error';
      readonly reason: AreaErrorReason;
      readonly message: string;
    };

/** The area's result plus what notification rules read: the previous full text for increase/decrease. */
export interface AreaComparison {
  readonly result: AreaResult;
  readonly previousText: string | null;
}

const VISIBLE = /[^\s\p{Cc}\p{Cf}]/u;
const MARKUP_PIECE_LENGTH = 500;

/** Decides whether one area was updated. Throws only on invalid options, which evaluateCheck reports. */
export function compareArea(input: AreaCheckInput): AreaComparison {
  const { areaId, options } = input;
  if (!input.current) {
    return failed(
      areaId,
      'area_not_found',
      'the area was not found on the page: check its selector or XPath',
    );
  }
  const normaliser = createAreaNormaliser(options);
  // The previous version is usually also the newest past update: the same markup is parsed once.
  const extractedByMarkup = new Map<string, string>();
  const extract = (snapshot: AreaSnapshot): string => {
    const markup = snapshot.html;
    const excluding = options.excludeElements.length > 0;
    if (markup === undefined || (options.stripTags && snapshot.text !== undefined && !excluding)) {
      return extractAreaContent(snapshot, options.stripTags);
    }
    let extracted = extractedByMarkup.get(markup);
    if (extracted === undefined) {
      extracted = extractAreaContent(snapshot, options.stripTags, options.excludeElements);
      extractedByMarkup.set(markup, extracted);
    }
    return extracted;
  };
  const extracted = extract(input.current);
  if (!VISIBLE.test(extracted)) {
    return failed(areaId, 'area_empty', 'the area has no content: enlarge the area or keep the tags');
  }
  const currentLines = normaliser.lines(extracted);
  const currentText = currentLines.join('\n');
  const currentCompact = compactLines(currentLines);
  const contentHash = contentHashOf(currentCompact);
  const settled = (
    outcome: 'first_check' | 'unchanged' | 'updated',
    diff: AreaDiff,
    previousText: string | null,
  ) => ({
    result: { areaId, outcome, contentHash, text: currentText, diff },
    previousText,
  });
  if (!input.previous) return settled('first_check', EMPTY_DIFF, null);
  const previousLines = normaliser.lines(extract(input.previous));
  const previousText = previousLines.join('\n');
  const notCounted = (reason: NotCountedReason, diff: AreaDiff): AreaComparison => ({
    result: { areaId, outcome: 'not_counted', reason, contentHash, text: currentText, diff },
    previousText,
  });
  if (previousText === currentText) return settled('unchanged', EMPTY_DIFF, previousText);
  if (linesHaveCompactText(previousLines, currentCompact)) return notCounted('whitespace_only', EMPTY_DIFF);
  const diff = diffArea(previousLines, currentLines, {
    cancelMoves: options.addOnly || options.allowSameWords,
    countRemovals: !options.addOnly,
  });
  if (!diff.rows.some((row) => row.changed))
    return notCounted(options.addOnly ? 'add_only' : 'same_words', diff);
  // Past versions are compared as they are parsed: most differ early on, and the rest is never parsed.
  const extractInPieces = (snapshot: AreaSnapshot): Iterable<string> => {
    const markup = snapshot.html;
    const parsing =
      options.stripTags &&
      snapshot.text === undefined &&
      markup !== undefined &&
      options.excludeElements.length === 0;
    return parsing && !extractedByMarkup.has(markup)
      ? visibleTextPieces(markup, MARKUP_PIECE_LENGTH)
      : [extract(snapshot)];
  };
  if (sameAsPastUpdate(currentCompact, input, normaliser, extractInPieces, input.previous))
    return notCounted('same_as_past_update', diff);
  return settled('updated', diff, previousText);
}

/** Whether the current content is the same (same content hash) as one of the last N update versions. */
function sameAsPastUpdate(
  currentCompact: string,
  input: AreaCheckInput,
  normaliser: AreaNormaliser,
  extract: (snapshot: AreaSnapshot) => Iterable<string>,
  previous: AreaSnapshot,
): boolean {
  const { enabled, count } = input.options.excludeSameAsPast;
  if (!enabled || count <= 0) return false;
  // The previous version, usually the newest past update, is known to differ by more than whitespace.
  const asPrevious = (past: AreaSnapshot) => past.html === previous.html && past.text === previous.text;
  return (input.pastUpdates ?? [])
    .slice(0, count)
    .some((past) => !asPrevious(past) && normaliser.hasCompactText(extract(past), currentCompact));
}

function failed(areaId: string, reason: AreaErrorReason, message: string): AreaComparison {
  return { result: { areaId, outcome: 'error', reason, message }, previousText: null };
}
