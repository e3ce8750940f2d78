import { useTranslation } from 'react-i18next';
import type { AreaUpdate, DiffSegment, DiffSide } from '../api/history.ts';
import {
  foldUnchanged,
  type InlineLine,
  inlineLines,
  isFolded,
  rowsFromDiffText,
  type SideBySideRow,
  sideBySideRows,
} from './diff-lines.ts';
import type { DiffLayout } from './history-view.ts';

/** One area's change, inline or side by side; highlighted words are <del> and <ins>. */
export function AreaDiff({ area, layout }: { area: AreaUpdate; layout: DiffLayout }) {
  const { t } = useTranslation();
  const rows = area.rows.length > 0 ? area.rows : rowsFromDiffText(area.diff_text);
  return (
    <section className="area-diff" aria-label={t('siteDetail.diffCaption', { label: area.label })}>
      <h4 className="subsection-title">{t('siteDetail.area', { label: area.label })}</h4>
      {rows.length === 0 ? (
        <p className="muted">{t('siteDetail.noDiff')}</p>
      ) : layout === 'inline' ? (
        <InlineDiff lines={inlineLines(rows)} />
      ) : (
        <SideBySideDiff
          rows={sideBySideRows(rows)}
          caption={t('siteDetail.diffCaption', { label: area.label })}
        />
      )}
    </section>
  );
}

function InlineDiff({ lines }: { lines: InlineLine[] }) {
  const { t } = useTranslation();
  const items = foldUnchanged(lines, (line) => line.mark !== 'same');
  return (
    <ol className="diff-inline" data-testid="diff-inline">
      {items.map((item, index) =>
        isFolded(item) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: folds have no identity but their place
          <li key={`fold-${index}`} className="diff-fold">
            {t('siteDetail.folded', { count: item.folded })}
          </li>
        ) : (
          <li key={`${item.mark}-${item.oldLine}-${item.newLine}`} className={`diff-line diff-${item.mark}`}>
            <span className="diff-mark" aria-hidden="true">
              {item.mark === 'added' ? '+' : item.mark === 'removed' ? '−' : ' '}
            </span>
            {item.mark !== 'same' && (
              <span className="visually-hidden">
                {item.mark === 'added' ? t('siteDetail.addedLine') : t('siteDetail.removedLine')}
              </span>
            )}
            <Segments segments={item.segments} mark={item.mark} />
          </li>
        ),
      )}
    </ol>
  );
}

function SideBySideDiff({ rows, caption }: { rows: SideBySideRow[]; caption: string }) {
  const { t } = useTranslation();
  const items = foldUnchanged(rows, (row) => row.kind !== 'same');
  return (
    <table className="diff-side" data-testid="diff-side">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('siteDetail.diffBefore')}</th>
          <th scope="col">{t('siteDetail.diffAfter')}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item, index) =>
          isFolded(item) ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: folds have no identity but their place
            <tr key={`fold-${index}`} className="diff-fold">
              <td colSpan={2}>{t('siteDetail.folded', { count: item.folded })}</td>
            </tr>
          ) : (
            <tr
              key={`${item.kind}-${item.old?.line}-${item.new?.line}`}
              className={`diff-row diff-row-${item.kind}`}
            >
              <SideCell side={item.old} mark="removed" />
              <SideCell side={item.new} mark="added" />
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}

function SideCell({ side, mark }: { side: DiffSide | null; mark: 'added' | 'removed' }) {
  if (!side) return <td className="diff-cell diff-cell-empty" />;
  const changed = side.segments.some((segment) => segment.changed);
  return (
    <td className={`diff-cell${changed ? ` diff-cell-${mark}` : ''}`}>
      <Segments segments={side.segments} mark={mark} />
    </td>
  );
}

function Segments({ segments, mark }: { segments: DiffSegment[]; mark: InlineLine['mark'] }) {
  return (
    <span className="diff-text">
      {segments.map((segment, index) => {
        // A line's segments never reorder, so their place is their identity.
        const key = `${index}`;
        if (!segment.changed || mark === 'same') return <span key={key}>{segment.text}</span>;
        return mark === 'added' ? <ins key={key}>{segment.text}</ins> : <del key={key}>{segment.text}</del>;
      })}
    </span>
  );
}
