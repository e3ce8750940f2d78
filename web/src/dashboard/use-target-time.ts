import { useTranslation } from 'react-i18next';
import { useUserInfo } from '../hooks/use-user-info.ts';
import { formatDateTime } from './target-time.ts';

/** Formats moments in the current language and the time zone saved on the account. */
export function useTargetTime(): (iso: string) => string {
  const { i18n } = useTranslation();
  const timeZone = useUserInfo().data?.locale.Timezone ?? '';
  return (iso) => formatDateTime(iso, i18n.language, timeZone);
}
