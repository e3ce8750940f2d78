import { useTranslation } from 'react-i18next';
import type { TargetVersion } from '../api/history.ts';
import { formatDateTime } from '../dashboard/target-time.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { useRegistrationData } from '../hooks/use-history.ts';

/** The data at registration: each area's first recorded text and picture, and the whole page. */
export function RegistrationDataSection({
  version,
  id,
  timeZone,
}: {
  version: TargetVersion;
  id: string;
  timeZone: string;
}) {
  const { t, i18n } = useTranslation();
  const data = useRegistrationData(version, id);
  return (
    <section className="detail-section" aria-labelledby="registration-title">
      <h2 id="registration-title" className="section-title">
        {t('siteDetail.registration')}
      </h2>
      {data.isPending ? (
        <p className="muted">{t('app.loading')}</p>
      ) : data.isError ? (
        <FormMessage tone="error" message={t('siteDetail.registrationLoadFailed')} />
      ) : data.data.areas.length === 0 && !data.data.page_screenshot ? (
        <p className="muted">{t('siteDetail.registrationEmpty')}</p>
      ) : (
        <div className="registration-areas">
          {data.data.areas.map((area) => (
            <article
              key={area.area_id}
              className="registration-area"
              aria-labelledby={`registration-${area.area_id}`}
            >
              <h3 id={`registration-${area.area_id}`} className="subsection-title">
                {t('siteDetail.area', { label: area.label })}
              </h3>
              {area.recorded_at && (
                <p className="muted">
                  {t('siteDetail.recordedAt', {
                    time: formatDateTime(area.recorded_at, i18n.language, timeZone),
                  })}
                </p>
              )}
              <pre className="registration-text">{area.text || t('siteDetail.emptyText')}</pre>
              {area.screenshot && (
                <img
                  className="registration-image"
                  src={area.screenshot}
                  alt={t('siteDetail.areaImageAlt', { label: area.label })}
                  loading="lazy"
                />
              )}
            </article>
          ))}
          {data.data.page_screenshot && (
            <figure className="registration-area screenshot">
              <figcaption>{t('siteDetail.pageImage')}</figcaption>
              <img
                className="registration-image"
                src={data.data.page_screenshot}
                alt={t('siteDetail.pageImageAlt')}
                loading="lazy"
              />
            </figure>
          )}
        </div>
      )}
    </section>
  );
}
