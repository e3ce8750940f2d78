// Run inside a loopback-only network namespace by http-page-fetcher.int.test.ts: the fixture
// site redirects to the metadata address, a private address and a name resolving to one, each
// really served on loopback, and the HTTP fetcher must refuse every hop. One JSON line each.
import { createServer } from 'node:http';
import { createHttpPageFetcher } from '../src/http/index.ts';
import { startFixtureSite } from './fixture-site.ts';

const internal = createServer((_incoming, response) =>
  response.end('<p id="secret">instance credentials</p>'),
);
await new Promise<void>((resolve) => internal.listen(80, '0.0.0.0', resolve));
const site = await startFixtureSite({
  metadata: 'http://169.254.169.254/latest/meta-data/iam/',
  private: 'http://10.0.0.1/',
  name: 'http://metadata.test/',
  mapped: 'http://[::ffff:169.254.169.254]/',
});
const fetcher = createHttpPageFetcher({ allow: [site.authority], attempts: 1, timeoutMs: 5_000 });
for (const target of ['metadata', 'private', 'name', 'mapped']) {
  const result = await fetcher.fetch(
    {
      url: `${site.origin}/redirect-to/${target}`,
      mode: 'http',
      userAgent: { kind: 'none' },
      actions: [],
      areas: [{ areaId: 'secret', selector: '#secret', selectorType: 'css' }],
      screenshot: 'none',
    },
    new AbortController().signal,
  );
  process.stdout.write(`${JSON.stringify({ target, result })}\n`);
}
await fetcher.close();
await site.close();
internal.close();
