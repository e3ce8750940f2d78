import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// What can be checked of the images without a container engine: the production entry starts
// every service with plain Node (no tsx), and the Dockerfile builds what the chart runs.

const root = fileURLToPath(new URL('../..', import.meta.url));
const entrypoint = join(root, 'deploy/service-entrypoint.sh');
const dockerfile = readFileSync(join(root, 'deploy/Dockerfile'), 'utf8');
const services = readdirSync(join(root, 'services')).filter((name) =>
  existsSync(join(root, 'services', name, 'src/main.ts')),
);

/** Runs the entrypoint as the image does, with this Node on PATH and nothing else in the environment. */
function start(
  service: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'sh',
      [entrypoint],
      {
        env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, MIMAMORI_SERVICE: service, ...env },
        timeout: 120_000,
      },
      (error, _stdout, stderr) => resolve({ code: error ? (error.code as number | null) : 0, stderr }),
    );
  });
}

/** The instructions of one stage (`FROM … AS name` up to the next FROM). */
function stage(name: string): string {
  const match = new RegExp(`^FROM \\S+ AS ${name}\\n([\\s\\S]*?)(?=^FROM |(?![\\s\\S]))`, 'm').exec(
    dockerfile,
  );
  if (!match?.[1]) throw new Error(`no stage ${name} in deploy/Dockerfile`);
  return match[1].replace(/\\\n/g, ' ');
}

describe('the production entry', () => {
  it.each(services)(
    'loads every module of %s with plain Node, up to its configuration check',
    async (service) => {
      // Without DATABASE_URL and the like each service stops at loadConfig, after every import
      // was parsed and linked: a syntax Node cannot run or a missing file fails earlier.
      const { code, stderr } = await start(service);
      expect(stderr).toContain('Invalid configuration');
      expect(stderr).not.toMatch(/ERR_|SyntaxError|Cannot find/);
      expect(code).toBe(1);
    },
    150_000,
  );

  it('covers every service', () => {
    expect(services).toEqual(expect.arrayContaining(['crawler', 'gateway', 'notifier', 'scheduler']));
  });

  it('refuses to start the gateway in production without the seller’s legal details, naming each', async () => {
    const { code, stderr } = await start('gateway', {
      NODE_ENV: 'production',
      OPERATOR_LEGAL_NAME: '株式会社見守り',
      OPERATOR_REGISTRATION_NUMBER: 'T8010601046368',
    });
    expect(stderr).toContain('Invalid operator details');
    expect(stderr).toContain('OPERATOR_ADDRESS: missing');
    expect(stderr).toMatch(/OPERATOR_REGISTRATION_NUMBER: .*check digit/);
    expect(code).toBe(1);
  }, 150_000);

  it('refuses a service that does not exist', async () => {
    const { code, stderr } = await start('billing');
    expect(code).toBe(64);
    expect(stderr).toContain('there is no');
  });

  it('runs no tsx', () => {
    const commands = readFileSync(entrypoint, 'utf8')
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'));
    expect(commands.join('\n')).toMatch(/^exec node .*"\$entry"$/m);
    expect(commands.join('\n')).not.toContain('tsx');
  });
});

describe('deploy/Dockerfile', () => {
  it('starts both images through the entrypoint as the numeric non-root user the chart runs as', () => {
    const values = parse(readFileSync(join(root, 'helm/mimamori/values.yaml'), 'utf8'));
    const user = `${values.podSecurityContext.runAsUser}:${values.podSecurityContext.runAsGroup}`;
    for (const name of ['crawler', 'service']) {
      const instructions = stage(name);
      expect(instructions, name).toContain(`USER ${user}`);
      expect(instructions, name).toContain('ENTRYPOINT ["tini", "--", "/app/deploy/service-entrypoint.sh"]');
      expect(instructions, name).toContain('COPY --from=app /app /app');
    }
    expect(existsSync(entrypoint)).toBe(true);
  });

  it('ships production dependencies only, without the tests and tools', () => {
    const app = stage('app');
    expect(app).toContain('pnpm install --frozen-lockfile --offline --prod');
    expect(app).toMatch(/rm -rf web\/src web\/node_modules packages\/test-fixtures e2e bench helm/);
    expect(app).toContain("-name '*.test.ts' -delete");
  });

  it('gives the crawler Chromium where the crawler looks for it, and CJK fonts', () => {
    const crawler = stage('crawler');
    expect(crawler).toMatch(/apt-get install .*chromium-headless-shell/);
    expect(crawler).toMatch(/apt-get install .*fonts-noto-cjk/);
    const path = /CHROMIUM_PATH=(\S+)/.exec(crawler)?.[1];
    expect(readFileSync(join(root, 'services/crawler/src/browser/chromium-binary.ts'), 'utf8')).toContain(
      `'${path}'`,
    );
  });

  it('gives every service the CJK font receipts are drawn with, where the account service looks for it', () => {
    expect(stage('runtime-base')).toMatch(/apt-get install .*fonts-noto-cjk/);
    expect(readFileSync(join(root, 'services/account/src/receipts/receipt-pdf.ts'), 'utf8')).toContain(
      "'/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'",
    );
  });

  it('builds from Node 24, the version the services are written for', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-/m);
  });
});
