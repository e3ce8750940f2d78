import { useTranslation } from 'react-i18next';
import type { TargetUpdate } from '../api/history.ts';

/** The page before and after an update: side by side on a wide window, stacked on a narrow one. */
export function UpdateScreenshots({
  screenshots,
  time,
}: {
  screenshots: TargetUpdate['screenshots'];
  time: string;
}) {
  const { t } = useTranslation();
  if (!screenshots.before && !screenshots.after) return null;
  return (
    <div className="update-screenshots">
      <h4 className="subsection-title">{t('siteDetail.screenshots')}</h4>
      <div className="screenshot-pair">
        {screenshots.before && (
          <figure className="screenshot">
            <figcaption>{t('siteDetail.beforeImage')}</figcaption>
            <a href={screenshots.before} target="_blank" rel="noopener noreferrer">
              <img src={screenshots.before} alt={t('siteDetail.beforeAlt', { time })} loading="lazy" />
            </a>
          </figure>
        )}
        {screenshots.after && (
          <figure className="screenshot">
            <figcaption>{t('siteDetail.afterImage')}</figcaption>
            <a href={screenshots.after} target="_blank" rel="noopener noreferrer">
              <img src={screenshots.after} alt={t('siteDetail.afterAlt', { time })} loading="lazy" />
            </a>
          </figure>
        )}
      </div>
    </div>
  );
}
