import { describe, expect, it } from 'vitest';
import { en, ja } from '../i18n/catalogue.ts';

// The services' sources as text: every refusal they can send the wizard is named there.
const targetSources = import.meta.glob<string>('../../../services/target/src/**/*.ts', {
  query: '?raw',
  import: 'default',
  eager: true,
});
const previewSources = import.meta.glob<string>('../../../services/crawler/src/{preview,grpc}/*.ts', {
  query: '?raw',
  import: 'default',
  eager: true,
});

function codes(sources: Record<string, string>, pattern: RegExp): Set<string> {
  const found = new Set<string>();
  for (const [path, text] of Object.entries(sources)) {
    if (path.endsWith('.test.ts')) continue;
    for (const match of text.matchAll(pattern)) if (match[1]) found.add(match[1]);
  }
  return found;
}

describe('messages for the registration refusals', () => {
  const target = codes(
    targetSources,
    /(?:invalid\(|TargetProblem\('[a-z_]+', |oneOf\([^,]+, (?:[A-Z_]+|\[[^\]]*\](?: as const)?), )'([a-z_]+)'/g,
  );
  const preview = codes(previewSources, /(?:PreviewError\('[a-z_]+', |invalid\()'([a-z_]+)'/g);

  it('finds the codes in the services (so the check below checks something)', () => {
    expect(target).toContain('interval_too_short');
    expect(target).toContain('too_many_sites');
    expect(target.size).toBeGreaterThan(30);
    expect(preview).toContain('preview_not_found');
  });

  it('has a Japanese and an English message for every code the target service and the preview send', () => {
    const missing = (catalogue: typeof ja) =>
      [...target, ...preview].filter((code) => !(code in catalogue.errors));
    expect(missing(ja)).toEqual([]);
    expect(missing(en)).toEqual([]);
  });
});
