export { type FilingsSettings, filingsEnv, filingsSettings, filingsSettingsFrom } from './config.ts';
export { searchKey } from './domain/search-key.ts';
export { createCompanyDirectory } from './jobs/company-directory.ts';
export { createFilingsService, type FilingsService, type FilingsServiceOptions } from './service.ts';
export {
  createFilingsStore,
  type JapaneseCompanyRow,
  type SecCompanyRow,
} from './store/filings-store.ts';
export { FILINGS_SCHEMA, filingsMigrations } from './store/migrations.ts';
