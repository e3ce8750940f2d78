import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTargetHarness, type TargetHarness } from './target-harness.ts';

let harness: TargetHarness;

beforeAll(async () => {
  harness = await startTargetHarness();
});

afterAll(async () => {
  await harness?.close();
});

type Imported = { id: string; ver: number; url: string; label: string; valid: boolean };

describe('bulk import of v1 sites (POST /api/v1/import)', () => {
  it('reads a plain list and reports each bad line', async () => {
    const { browser } = await harness.signedIn('list-import@example.com');
    const response = await browser.post('/api/v1/import', {
      text: '# watched\nhttps://a.example/\nnot a url\n\nhttps://b.example/x?y=1\nhttps://a.example/\n',
    });
    expect(response.status).toBe(200);
    expect(response.body.format).toBe('list');
    expect((response.body.imported as Imported[]).map((site) => [site.ver, site.url, site.valid])).toEqual([
      [1, 'https://a.example/', true],
      [1, 'https://b.example/x?y=1', true],
    ]);
    expect(response.body.problems).toEqual([
      { line: 3, code: 'url_invalid', text: 'not a url' },
      { line: 6, code: 'duplicate', text: 'https://a.example/' },
    ]);
    // Importing again reports what is already watched instead of doubling it.
    const again = await browser.post('/api/v1/import', { text: 'https://a.example/' });
    expect(again.body).toMatchObject({ imported: [], problems: [{ line: 1, code: 'already_registered' }] });
    expect((await harness.events('targets.registered')).length).toBeGreaterThanOrEqual(2);
  });

  it('reads CSV with labels', async () => {
    const { browser } = await harness.signedIn('csv-import@example.com');
    const response = await browser.post('/api/v1/import', {
      text: 'url,label\nhttps://news.example/,"News, daily"\nmailto:x@example.com,Mail\n',
    });
    expect(response.body.format).toBe('csv');
    expect((response.body.imported as Imported[]).map((site) => [site.url, site.label])).toEqual([
      ['https://news.example/', 'News, daily'],
    ]);
    expect(response.body.problems).toEqual([{ line: 3, code: 'url_invalid', text: 'mailto:x@example.com' }]);
  });

  it("reads urlwatch's urls.yaml and reports command jobs it cannot watch", async () => {
    const { browser } = await harness.signedIn('yaml-import@example.com');
    const text = [
      'name: "Watch this"',
      'url: "https://watch.example/"',
      '---',
      'kind: shell',
      'command: "ls -al ~"',
      '---',
      'url: [broken',
    ].join('\n');
    const response = await browser.post('/api/v1/import', { text });
    expect(response.body.format).toBe('yaml');
    expect((response.body.imported as Imported[]).map((site) => [site.url, site.label])).toEqual([
      ['https://watch.example/', 'Watch this'],
    ]);
    expect((response.body.problems as { line: number; code: string }[]).map((p) => [p.line, p.code])).toEqual(
      [
        [4, 'unsupported_job'],
        [7, 'syntax_error'],
      ],
    );
  });

  it('imports beyond the free slots as paused sites', async () => {
    const { browser } = await harness.signedIn('many-import@example.com');
    const text = Array.from({ length: 7 }, (_, i) => `https://site${i}.example/`).join('\n');
    const response = await browser.post('/api/v1/import', { text, format: 'list' });
    expect((response.body.imported as Imported[]).map((site) => site.valid)).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('refuses an empty text and an unknown format', async () => {
    const { browser } = await harness.signedIn('bad-import@example.com');
    expect((await browser.post('/api/v1/import', { text: '  ' })).body.error).toMatchObject({
      code: 'import_empty',
    });
    expect(
      (await browser.post('/api/v1/import', { text: 'https://a.example/', format: 'xml' })).body.error,
    ).toMatchObject({
      code: 'import_format_invalid',
      field: 'format',
    });
  });
});
