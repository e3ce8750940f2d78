// Import rules of the repository, checked by `depcruise` in scripts/test.sh (step "import rules").
// A violation fails the test command and names the rule broken; docs/architecture.md
// ("Inside a service") says why each rule is there.

/** Libraries that reach the network or another process: the handlers' and clients' business. */
const TRANSPORT = [
  '@grpc/grpc-js',
  '@nats-io',
  'nats',
  'fastify',
  '@fastify',
  'undici',
  'playwright',
  'playwright-core',
  'nodemailer',
];
/** Database drivers: only a service's store/ and packages/db open or query a database. */
const DRIVER = ['pg', '@electric-sql/pglite'];
/** Our packages that carry a transport, a driver or a running process (bus, database, blobs). */
const INFRASTRUCTURE_PACKAGES = ['bus', 'db', 'blob-store', 'mail', 'egress', 'runtime', 'service-host'];

/** A path in node_modules (pnpm's store included) of one of the named libraries. */
const library = (names) => `node_modules/(${names.map((name) => name.replace(/[.]/g, '\\.')).join('|')})/`;

/**
 * The parts of those packages that are only a port or a pure function, which domain code may
 * name: the blob store's interface, the mail message's shape, HTML escaping. Each is its own
 * export (`@mimamori/blob-store/blob-store`, …), so importing it does not load the driver.
 */
const PORTS = [
  '^packages/blob-store/src/blob-store\\.ts$',
  '^packages/mail/src/(html-escape|mail-transport)\\.ts$',
];

/** Packages the SPA may import: pure code with no Node built-in, transport or database. */
const BROWSER_PACKAGES = ['http-api', 'isin', 'operator', 'plans', 'watch-engine'];

/**
 * The domain code: the rules of the product, run the same way whatever calls it. A service's
 * domain/ and the pure packages (the watch engine, plans, the ISIN check, the operator details).
 */
const DOMAIN = '^(services/[^/]+/src/domain/|packages/(watch-engine|plans|isin|operator)/src/)';

module.exports = {
  forbidden: [
    {
      name: 'domain-imports-no-transport',
      comment:
        'Domain code imports no transport (gRPC, NATS, HTTP servers and clients, browsers, mail): ' +
        "handlers in grpc/, http/, events/ and outbound calls in clients/ adapt it, so the rules don't " +
        'change with the way a service is reached.',
      severity: 'error',
      from: { path: DOMAIN, pathNot: '\\.test\\.ts$' },
      to: { path: library(TRANSPORT) },
    },
    {
      name: 'domain-imports-no-driver-or-store',
      comment:
        "Domain code imports no database driver, no service's store/ and none of our packages that " +
        'hold a bus, a database, blobs or a process (bus, db, blob-store, mail, egress, runtime, ' +
        'service-host); it states the port it needs and the wiring (service.ts) hands it the store.',
      severity: 'error',
      from: { path: DOMAIN, pathNot: '\\.test\\.ts$' },
      to: {
        pathNot: PORTS,
        path: [
          library(DRIVER),
          '^services/[^/]+/src/store/',
          `^packages/(${INFRASTRUCTURE_PACKAGES.join('|')})/`,
        ],
      },
    },
    {
      name: 'package-imports-no-service',
      comment:
        'packages/ are the shared libraries the services are built from; a package importing a ' +
        'service (or the single-process product) would tie every service to that one. What the ' +
        'services share belongs in a package; what composes them lives in standalone/ (ADR 0013).',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^(services|standalone|system-tests)/' },
    },
    {
      name: 'service-imports-no-other-service',
      comment:
        'A service reaches another only over gRPC or the bus (the contracts in packages/contracts ' +
        'and packages/events), never by importing its code: they deploy and scale apart. Only ' +
        'standalone/, system-tests/ and bench/ put services together, and a test may start the ' +
        'services its own one calls.',
      severity: 'error',
      from: { path: '^services/([^/]+)/src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^services/', pathNot: ['^services/$1/'] },
    },
    {
      name: 'web-imports-browser-packages-only',
      comment:
        `The SPA runs in the browser: of our code it imports only the pure packages meant for it ` +
        `(${BROWSER_PACKAGES.join(', ')}), never a service, the product or a Node-side package.`,
      severity: 'error',
      from: { path: '^web/' },
      to: {
        path: '^(packages|services|standalone|system-tests)/',
        pathNot: `^packages/(${BROWSER_PACKAGES.join('|')})/`,
      },
    },
    {
      name: 'imports-resolve',
      comment:
        'Every import resolves to a file: one that does not (a package missing from package.json, a ' +
        'mistyped path) would also slip past the rules above, which look at where an import leads.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      comment:
        'No import cycles: a cycle means neither module can be understood, tested or moved without ' +
        'the other; split out what both need.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Only our own code is checked; libraries are followed one step, to name what is imported.
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|coverage|\\.tools|\\.data)/' },
    // `import type` counts: a domain that needs a store's types depends on the store.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
