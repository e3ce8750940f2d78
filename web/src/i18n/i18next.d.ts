import 'i18next';
import type { Catalogue } from './catalogue.ts';

// Typed keys: `t('pages.signin')` is checked against the Japanese catalogue at compile time.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Catalogue };
  }
}
