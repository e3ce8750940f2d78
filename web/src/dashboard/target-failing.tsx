import { useTranslation } from 'react-i18next';
import type { TargetRow } from '../api/targets.ts';
import { useTargetTime } from './use-target-time.ts';

/**
 * A failing site's line in the list: since when its checks fail and what fails
 * (docs/product.md#failure-alerts). Nothing while it works.
 */
export function TargetFailing({ site }: { site: TargetRow }) {
  const { t } = useTranslation();
  const time = useTargetTime();
  if (!site.failing) return null;
  return (
    <p className="site-failing" data-testid="site-failing">
      {t('dashboard.sites.failing', {
        since: time(site.failing.since),
        what: t(`dashboard.failureKinds.${site.failing.kind}`),
      })}
    </p>
  );
}
