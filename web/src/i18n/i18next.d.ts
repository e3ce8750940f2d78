import 'i18next';
import type ja from './ja.json';

// Typed keys: `t('pages.signin')` is checked against the Japanese catalogue at compile time.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof ja };
  }
}
