/**
 * Renames code, events and files to the words of the glossary (docs/architecture.md#glossary):
 * a watched page is a target (the screens still say site), a change worth telling is an update,
 * and the message on `checks.run` asks to run a check.
 *
 * Run it on a clean tree (it works from any folder):
 *
 *   node --import tsx scripts/codemods/glossary-renames.ts           # apply
 *   node --import tsx scripts/codemods/glossary-renames.ts --dry-run # list what would change
 *
 * It is mechanical and idempotent: a second run finds nothing to do. It renames whole words only,
 * in the files git tracks (TypeScript, proto, Markdown, YAML; never the i18n catalogues), moves the
 * files below with `git mv`, rewrites the relative imports that point at them, and regenerates
 * packages/contracts/src/gen with buf. Afterwards: `tsc -p tsconfig.json && tsc -p
 * web/tsconfig.json`, `vitest run --project unit`, `bash proto/check-generated.sh`.
 *
 * What it renames:
 * - Events: subject `changes.detected` → `updates.detected`, stream `CHANGES` → `UPDATES`
 *   (`changes.>` → `updates.>`, `streams.changes` → `streams.updates`), durable
 *   `notifier-changes-detected` → `notifier-updates-detected`; proto file
 *   `events/v1/changes.proto` → `updates.proto` (`changesEventsV1` → `updatesEventsV1`);
 *   `ChangeDetected` → `UpdateDetected` (`changeDetected` → `updateDetected`), `AreaChange` →
 *   `AreaUpdate`; `CheckRequested` → `RunCheck` (`checkRequested` → `runCheck`, the crawler's own
 *   `runCheck` becoming `performCheck` first); `SiteUsageChanged` → `TargetUsageChanged`.
 * - gRPC: `SiteRow` → `TargetRow`, `SiteQuota` → `PlanQuota`.
 * - Target service: `SiteRow`, `SiteRowView`, `toSiteRow`, `siteRows`, `siteFits`, `newSiteFits`,
 *   `SiteNeed`, `SiteDemand`, `siteDemand`, `loadSiteDemand`, `siteUrl`, `allSites`, `activeSites`,
 *   `ImportedSite`, `MAX_SITES_PER_USER` → the same with Target (`MAX_TARGETS_PER_USER`); the
 *   database row type `TargetRow` in store/ becomes `TargetTableRow` first, so the names do not
 *   meet. Files: domain/site-row.ts → target-row.ts, store/target-row.ts → target-table-row.ts,
 *   domain/site-quota(.test).ts → target-quota, domain/site-url.ts → target-url.ts.
 * - Account service: site-usage-consumer.ts, store/site-usage-store.ts → target-usage-*;
 *   `siteUsageConsumer`, `recordSiteUsage`, `SiteUsageReport`, `siteUsageChanged`.
 * - Gateway: `siteRowJson` → `targetRowJson`, `siteRow` (the OpenAPI schema) → `targetRow`.
 * - Diff service: `StoredSiteSettings` → `StoredTargetSettings` in services/diff only (the SPA
 *   already has its own `StoredTargetSettings`).
 * - SPA: `useSiteList` → `useTargetList`, `fetchSiteList` → `fetchTargetList`, `SiteList`,
 *   `siteList`, `SiteListSection`, `SiteTable`, `SiteCards`, `SiteBadges`, `SiteSort`,
 *   `SiteFilter`, `visibleSites`, `compareSites`, `siteName`, `SiteAction`, `useSiteAction`,
 *   `RequestSiteAction`, `actOnSite`, `SiteActionButton`, `SiteButtonProps`, `SiteActions`,
 *   `SiteHeader`, `SiteDetailScreen`, `MissingSite`, `SiteVersion`, `SiteUpdate`, `useSiteTime`,
 *   `useRefreshSites`, `useImportSites`, `siteHistoryPage` (query key), `SiteHistoryPage`,
 *   `SiteRegistrationColumnsPage`, `SiteRegistrationMobilePage`, `siteRegistrationColumns`,
 *   `siteRegistrationMobile` (route keys) → Target. Files: web/src/dashboard/site-*.ts(x) and
 *   use-site-time.ts → target-*, web/src/site-detail/ → web/src/target-detail/ (site-actions,
 *   site-detail-screen, site-detail.css, site-header → target-*), web/src/pages/site-*-page.tsx →
 *   target-*-page.tsx.
 * - Tests: services/target/test/site-*.ts, import-sites, register-site → target-*, import-targets,
 *   register-target (`SiteBrowser`, `SiteResponse`, `siteBody`); services/gateway/test/history/
 *   site-history.int.test.ts, e2e/site-detail.e2e.test.ts, bench/pipeline-sites.ts → target-*.
 *
 * Left as they are, on purpose: every user-visible text (サイト / site), the product's HTTP paths
 * and JSON keys (`/api/v2/targets`, `target_id`, `user_info`, the target list row's keys), the i18n
 * catalogue keys and page titles (`siteDetail.*`, `siteHistory`, `nav.siteRegistration`), CSS
 * class names, SQL tables and columns (`site_usage`), the refusal code `too_many_sites`, local
 * variables named `site`, and real web sites in tests (`FixtureSite`, `price-site.ts`,
 * `SiteFooter` of the SPA itself).
 *
 * Deploying the event renames: the subject and stream change, so let the old CHANGES stream and
 * the outboxes drain (no `changes.detected` left unsent) before the new version starts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const dryRun = process.argv.includes('--dry-run');

/** Moves, in order; a move whose source is gone and whose destination exists was done before. */
const FILE_MOVES: [from: string, to: string][] = [
  ['services/target/src/store/target-row.ts', 'services/target/src/store/target-table-row.ts'],
  ['services/target/src/domain/site-row.ts', 'services/target/src/domain/target-row.ts'],
  ['services/target/src/domain/site-quota.ts', 'services/target/src/domain/target-quota.ts'],
  ['services/target/src/domain/site-quota.test.ts', 'services/target/src/domain/target-quota.test.ts'],
  ['services/target/src/domain/site-url.ts', 'services/target/src/domain/target-url.ts'],
  ['services/account/src/site-usage-consumer.ts', 'services/account/src/target-usage-consumer.ts'],
  ['services/account/src/store/site-usage-store.ts', 'services/account/src/store/target-usage-store.ts'],
  ['proto/mimamori/events/v1/changes.proto', 'proto/mimamori/events/v1/updates.proto'],
  [
    'packages/contracts/src/gen/mimamori/events/v1/changes.ts',
    'packages/contracts/src/gen/mimamori/events/v1/updates.ts',
  ],
  ['web/src/dashboard/site-action-buttons.tsx', 'web/src/dashboard/target-action-buttons.tsx'],
  ['web/src/dashboard/site-badges.tsx', 'web/src/dashboard/target-badges.tsx'],
  ['web/src/dashboard/site-cards.tsx', 'web/src/dashboard/target-cards.tsx'],
  ['web/src/dashboard/site-list-section.tsx', 'web/src/dashboard/target-list-section.tsx'],
  ['web/src/dashboard/site-order.ts', 'web/src/dashboard/target-order.ts'],
  ['web/src/dashboard/site-order.test.ts', 'web/src/dashboard/target-order.test.ts'],
  ['web/src/dashboard/site-table.tsx', 'web/src/dashboard/target-table.tsx'],
  ['web/src/dashboard/site-time.ts', 'web/src/dashboard/target-time.ts'],
  ['web/src/dashboard/site-time.test.ts', 'web/src/dashboard/target-time.test.ts'],
  ['web/src/dashboard/use-site-time.ts', 'web/src/dashboard/use-target-time.ts'],
  ['web/src/pages/site-history-page.tsx', 'web/src/pages/target-history-page.tsx'],
  ['web/src/pages/site-registration-columns-page.tsx', 'web/src/pages/target-registration-columns-page.tsx'],
  ['web/src/pages/site-registration-mobile-page.tsx', 'web/src/pages/target-registration-mobile-page.tsx'],
  ['web/src/site-detail/site-actions.tsx', 'web/src/target-detail/target-actions.tsx'],
  ['web/src/site-detail/site-detail-screen.tsx', 'web/src/target-detail/target-detail-screen.tsx'],
  ['web/src/site-detail/site-detail.css', 'web/src/target-detail/target-detail.css'],
  ['web/src/site-detail/site-header.tsx', 'web/src/target-detail/target-header.tsx'],
  ...[
    'area-diff.tsx',
    'diff-lines.test.ts',
    'diff-lines.ts',
    'history-controls.tsx',
    'history-entry.tsx',
    'history-list.tsx',
    'history-view.test.ts',
    'history-view.ts',
    'registration-data.tsx',
    'time-format.test.ts',
    'time-format.ts',
    'update-screenshots.tsx',
  ].map((name): [string, string] => [`web/src/site-detail/${name}`, `web/src/target-detail/${name}`]),
  ['services/target/test/site-actions.int.test.ts', 'services/target/test/target-actions.int.test.ts'],
  ['services/target/test/site-bodies.ts', 'services/target/test/target-bodies.ts'],
  ['services/target/test/site-browser.ts', 'services/target/test/target-browser.ts'],
  ['services/target/test/site-usage.int.test.ts', 'services/target/test/target-usage.int.test.ts'],
  ['services/target/test/import-sites.int.test.ts', 'services/target/test/import-targets.int.test.ts'],
  ['services/target/test/register-site.int.test.ts', 'services/target/test/register-target.int.test.ts'],
  [
    'services/gateway/test/history/site-history.int.test.ts',
    'services/gateway/test/history/target-history.int.test.ts',
  ],
  ['e2e/site-detail.e2e.test.ts', 'e2e/target-detail.e2e.test.ts'],
  ['bench/pipeline-sites.ts', 'bench/pipeline-targets.ts'],
];

interface WordRename {
  from: string;
  to: string;
  /** Only in files under these folders. */
  under?: string[];
  /** Whole words (identifiers) or the exact text (subjects, stream names). */
  exact?: boolean;
  /** Done only while this identifier still exists somewhere, so a second run does not repeat it. */
  whileExists?: string;
}

const WORD_RENAMES: WordRename[] = [
  // The glossary's note that these renames are still to come.
  {
    from: 'Names still carrying an old word (`useSiteList`, `SiteRow`, `CheckRequested`, `changes.detected`, …)\nare renamed by `scripts/codemods/glossary-renames.ts`, whose header lists them.\n\n',
    to: '',
    exact: true,
    under: ['docs/architecture.md'],
  },
  // Names that would meet the new ones, moved aside first.
  { from: 'TargetRow', to: 'TargetTableRow', under: ['services/target/src/store/'], whileExists: 'SiteRow' },
  {
    from: 'runCheck',
    to: 'performCheck',
    under: ['services/crawler/src/events/'],
    whileExists: 'checkRequested',
  },
  // Events.
  { from: 'changes.detected', to: 'updates.detected', exact: true },
  { from: 'notifier-changes-detected', to: 'notifier-updates-detected', exact: true },
  { from: "'changes.>'", to: "'updates.>'", exact: true },
  { from: "'CHANGES'", to: "'UPDATES'", exact: true },
  { from: 'stream CHANGES', to: 'stream UPDATES', exact: true },
  { from: 'streams.changes', to: 'streams.updates', exact: true },
  { from: '  changes: {', to: '  updates: {', exact: true, under: ['packages/events/src/catalog.ts'] },
  { from: 'changesEventsV1', to: 'updatesEventsV1' },
  { from: 'ChangeDetected', to: 'UpdateDetected' },
  { from: 'changeDetected', to: 'updateDetected' },
  { from: 'AreaChange', to: 'AreaUpdate' },
  { from: 'CheckRequested', to: 'RunCheck' },
  { from: 'checkRequested', to: 'runCheck' },
  { from: 'SiteUsageChanged', to: 'TargetUsageChanged' },
  { from: 'siteUsageChanged', to: 'targetUsageChanged' },
  // gRPC and the target service.
  { from: 'SiteQuota', to: 'PlanQuota' },
  { from: 'SiteRow', to: 'TargetRow' },
  { from: 'SiteRowView', to: 'TargetRowView' },
  { from: 'toSiteRow', to: 'toTargetRow' },
  { from: 'siteRows', to: 'targetRows' },
  { from: 'siteRowJson', to: 'targetRowJson' },
  { from: 'siteRow', to: 'targetRow', under: ['services/gateway/src/http/'] },
  { from: 'siteFits', to: 'targetFits' },
  { from: 'newSiteFits', to: 'newTargetFits' },
  { from: 'SiteNeed', to: 'TargetNeed' },
  { from: 'SiteDemand', to: 'TargetDemand' },
  { from: 'siteDemand', to: 'targetDemand' },
  { from: 'loadSiteDemand', to: 'loadTargetDemand' },
  { from: 'siteUrl', to: 'targetUrl', under: ['services/target/'] },
  { from: 'allSites', to: 'allTargets' },
  { from: 'activeSites', to: 'activeTargets' },
  { from: 'ImportedSite', to: 'ImportedTarget' },
  { from: 'MAX_SITES_PER_USER', to: 'MAX_TARGETS_PER_USER' },
  { from: 'siteUsageConsumer', to: 'targetUsageConsumer' },
  { from: 'recordSiteUsage', to: 'recordTargetUsage' },
  { from: 'SiteUsageReport', to: 'TargetUsageReport' },
  { from: 'StoredSiteSettings', to: 'StoredTargetSettings', under: ['services/diff/'] },
  // The SPA.
  { from: 'useSiteList', to: 'useTargetList' },
  { from: 'fetchSiteList', to: 'fetchTargetList' },
  { from: 'SiteList', to: 'TargetList' },
  { from: 'siteList', to: 'targetList', under: ['web/src/'] },
  { from: 'SiteListSection', to: 'TargetListSection' },
  { from: 'SiteTable', to: 'TargetTable' },
  { from: 'SiteCards', to: 'TargetCards' },
  { from: 'SiteBadges', to: 'TargetBadges' },
  { from: 'SiteSort', to: 'TargetSort' },
  { from: 'SiteFilter', to: 'TargetFilter' },
  { from: 'visibleSites', to: 'visibleTargets' },
  { from: 'compareSites', to: 'compareTargets' },
  { from: 'siteName', to: 'targetName', under: ['web/src/'] },
  { from: 'SiteAction', to: 'TargetAction' },
  { from: 'useSiteAction', to: 'useTargetAction' },
  { from: 'RequestSiteAction', to: 'RequestTargetAction' },
  { from: 'actOnSite', to: 'actOnTarget' },
  { from: 'SiteActionButton', to: 'TargetActionButton' },
  { from: 'SiteButtonProps', to: 'TargetButtonProps' },
  { from: 'SiteActions', to: 'TargetActions' },
  { from: 'SiteHeader', to: 'TargetHeader' },
  { from: 'SiteDetailScreen', to: 'TargetDetailScreen' },
  { from: 'MissingSite', to: 'MissingTarget' },
  { from: 'SiteVersion', to: 'TargetVersion' },
  { from: 'SiteUpdate', to: 'TargetUpdate' },
  { from: 'useSiteTime', to: 'useTargetTime' },
  { from: 'useRefreshSites', to: 'useRefreshTargets' },
  { from: 'useImportSites', to: 'useImportTargets' },
  { from: 'siteHistoryPage', to: 'targetHistoryPage' },
  { from: 'SiteHistoryPage', to: 'TargetHistoryPage' },
  { from: 'SiteRegistrationColumnsPage', to: 'TargetRegistrationColumnsPage' },
  { from: 'SiteRegistrationMobilePage', to: 'TargetRegistrationMobilePage' },
  { from: 'siteRegistrationColumns', to: 'targetRegistrationColumns' },
  { from: 'siteRegistrationMobile', to: 'targetRegistrationMobile' },
  // Tests.
  { from: 'SiteBrowser', to: 'TargetBrowser' },
  { from: 'SiteResponse', to: 'TargetResponse' },
  { from: 'siteBody', to: 'targetBody' },
];

/** Files whose words are renamed; the i18n catalogues (JSON) keep their keys. */
const RENAMED_IN = /\.(ts|tsx|proto|md|ya?ml)$/;
const GENERATED = 'packages/contracts/src/gen/';
/** This script names the old words to find them. */
const THIS_SCRIPT = 'scripts/codemods/glossary-renames.ts';

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });
}

function trackedFiles(): string[] {
  return git('ls-files', '-z')
    .split('\0')
    .filter((file) => file && existsSync(join(ROOT, file)));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function patternOf(rename: WordRename): RegExp {
  const text = escapeRegExp(rename.from);
  return new RegExp(rename.exact ? text : `(?<![\\w$])${text}(?![\\w$])`, 'g');
}

function applies(rename: WordRename, file: string): boolean {
  return !rename.under || rename.under.some((folder) => file.startsWith(folder));
}

/** Where a relative import from `file` lands, as a repository path. */
function resolveImport(file: string, specifier: string): string {
  return posix.normalize(posix.join(posix.dirname(file), specifier));
}

function relativeImport(file: string, target: string): string {
  const path = posix.relative(posix.dirname(file), target);
  return path.startsWith('.') ? path : `./${path}`;
}

const IMPORT_SPECIFIER = /((?:from|import)\s*\(?\s*)(['"])(\.\.?\/[^'"]+)\2/g;

/**
 * Rewrites the relative imports of a file that was at `oldFile` and is now at `newFile`, for the
 * files moved (a moved file's own imports are resolved from where it was).
 */
function rewriteImports(text: string, oldFile: string, newFile: string, moved: Map<string, string>): string {
  return text.replace(IMPORT_SPECIFIER, (whole, lead: string, quote: string, specifier: string) => {
    const target = resolveImport(oldFile, specifier);
    const movedTo = moved.get(target);
    if (!movedTo && oldFile === newFile) return whole;
    return `${lead}${quote}${relativeImport(newFile, movedTo ?? target)}${quote}`;
  });
}

function main() {
  const pending = FILE_MOVES.filter(([from]) => existsSync(join(ROOT, from)));
  const moved = new Map(pending);
  const changes: string[] = [];

  // 1. Moves, with imports rewritten in every file (read from the old place, written to the new).
  const files = trackedFiles();
  const contents = new Map(files.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));
  for (const [from, to] of pending) {
    changes.push(`move ${from} → ${to}`);
    if (dryRun) continue;
    mkdirSync(dirname(join(ROOT, to)), { recursive: true });
    git('mv', from, to);
  }
  const current = (file: string) => moved.get(file) ?? file;

  // 2. Words, then the repository paths of the moved files wherever they are named.
  const everywhere = [...contents]
    .filter(([file]) => file !== THIS_SCRIPT)
    .map(([, text]) => text)
    .join('\n');
  const renames = WORD_RENAMES.filter(
    (rename) => !rename.whileExists || patternOf({ from: rename.whileExists, to: '' }).test(everywhere),
  );
  for (const file of files) {
    const at = current(file);
    const before = contents.get(file) ?? '';
    let text = before;
    if (/\.(tsx?)$/.test(file)) text = rewriteImports(text, file, at, moved);
    if (RENAMED_IN.test(file) && !file.startsWith(GENERATED) && file !== THIS_SCRIPT) {
      for (const rename of renames) {
        if (applies(rename, at)) text = text.replace(patternOf(rename), rename.to);
      }
      for (const [from, to] of pending) text = text.replaceAll(from, to);
    }
    if (text === before) continue;
    changes.push(`edit ${at}`);
    if (!dryRun) writeFileSync(join(ROOT, at), text);
  }

  // 3. The generated contracts follow the renamed protos.
  if (!dryRun && changes.some((change) => change.includes('.proto'))) {
    execFileSync(join(ROOT, 'node_modules/.bin/buf'), ['generate'], {
      cwd: join(ROOT, 'proto'),
      stdio: 'inherit',
    });
    git('add', '-A', GENERATED);
    changes.push(`regenerate ${GENERATED}`);
  }

  // 4. Imports sorted and lines wrapped again where names grew (biome's own fixes only).
  const edited = changes.flatMap((change) => /^edit (.+\.tsx?)$/.exec(change)?.slice(1) ?? []);
  if (!dryRun && edited.length > 0) {
    execFileSync(join(ROOT, 'node_modules/.bin/biome'), ['check', '--write', ...edited], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  }

  console.log(changes.length ? changes.join('\n') : 'nothing to rename: already applied');
  console.log(`${changes.length} change(s)${dryRun ? ' (dry run, nothing written)' : ''}`);
}

main();
