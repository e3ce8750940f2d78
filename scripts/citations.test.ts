import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Comments and documents cite the product's rules in docs/product.md and the design in
// docs/architecture.md and docs/adr/, by heading. A citation of a document that is not in the
// repository (a numbered spec section, the design guide, a path on someone's machine) cannot be
// followed by the next reader, and a cited heading that was renamed leaves the comment pointing
// nowhere; this test finds both.

const ROOT = join(import.meta.dirname, '..');
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.tools', '.data', 'dist', 'gen']);
const CHECKED_FILES = /\.(ts|tsx|proto|ya?ml|md|css)$/;

/** Citations of documents that live outside the repository, each with why it is refused. */
const OUTSIDE_CITATIONS: [pattern: RegExp, why: string][] = [
  [/\bspec(?:'s|’s)? sections?\b/i, 'a numbered section of a spec outside the repository'],
  [/\bspec §/i, 'a numbered section of a spec outside the repository'],
  [/\bdesign(?: guide)? §/i, 'a numbered section of a design guide outside the repository'],
  [/\bdesign guide\b/i, 'a design guide outside the repository'],
  [/\bproduct-spec\b/i, 'a spec file outside the repository'],
  [/(?:^|[\s'"`(])\/(?:work|home|root|Users|tmp)\//, 'an absolute path on one machine'],
  [/\bshared\/(?:spec|design|references)\b/, 'a shared folder outside the repository'],
];

/** `product.md#quotas`, `docs/architecture.md#glossary`, `](../../docs/product.md#targets)`. */
const HEADING_CITATION = /\b(product|architecture)\.md#([a-z0-9][a-z0-9-]*)/g;

function outsideCitations(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const [pattern, why] of OUTSIDE_CITATIONS) {
      if (pattern.test(line)) found.push(`line ${index + 1}: ${why}: ${line.trim()}`);
    }
  });
  return found;
}

/** The anchor a Markdown heading gets: lower case, punctuation dropped, spaces as hyphens. */
function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.+)$/.exec(line);
    if (heading?.[1]) slugs.add(headingSlug(heading[1]));
  }
  return slugs;
}

function citedHeadings(text: string): { document: string; slug: string }[] {
  return [...text.matchAll(HEADING_CITATION)].map(([, document, slug]) => ({
    document: `docs/${document}.md`,
    slug: slug ?? '',
  }));
}

function checkedFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory())
      return SKIPPED_FOLDERS.has(entry.name) ? [] : checkedFiles(join(folder, entry.name));
    return CHECKED_FILES.test(entry.name) ? [join(folder, entry.name)] : [];
  });
}

describe('citations in the repository', () => {
  // This file names the refused citations to find them; every other file is checked.
  const files = checkedFiles(ROOT).filter((file) => file !== import.meta.filename);
  const read = (file: string) => readFileSync(file, 'utf8');

  it('finds the files it checks', () => {
    const names = files.map((file) => relative(ROOT, file));
    expect(names).toContain('docs/product.md');
    expect(names).toContain('packages/plans/src/plan-catalog.ts');
    expect(names).toContain('proto/mimamori/target/v1/target.proto');
  });

  it('cites no document outside the repository', () => {
    const problems = files.flatMap((file) =>
      outsideCitations(read(file)).map((problem) => `${relative(ROOT, file)} ${problem}`),
    );
    expect(problems).toEqual([]);
  });

  it('cites only headings that docs/product.md and docs/architecture.md have', () => {
    const slugs = new Map(
      ['docs/product.md', 'docs/architecture.md'].map((document) => [
        document,
        headingSlugs(read(join(ROOT, document))),
      ]),
    );
    const missing = files.flatMap((file) =>
      citedHeadings(read(file))
        .filter(({ document, slug }) => !slugs.get(document)?.has(slug))
        .map(({ document, slug }) => `${relative(ROOT, file)} cites ${document}#${slug}`),
    );
    expect(missing).toEqual([]);
  });
});

describe('the citation checks themselves', () => {
  it('refuse numbered sections, the design guide and machine paths', () => {
    expect(outsideCitations('/** Yen in whole units (spec section 9). */')).toHaveLength(1);
    expect(outsideCitations("// the spec's section 7 paths")).toHaveLength(1);
    expect(outsideCitations('cheap (design §5)')).toHaveLength(1);
    expect(outsideCitations('see /work/shared/spec/product-spec.md')).toHaveLength(3);
  });

  it('let our own documents and ordinary words through', () => {
    expect(outsideCitations('/** Yen in whole units (docs/product.md#prices). */')).toEqual([]);
    expect(outsideCitations('const spec: ConsumerSpec = { stream };')).toEqual([]);
    expect(outsideCitations('spec:\n  replicas: 2')).toEqual([]);
    expect(outsideCitations("path.join(root, 'tmp/work/')")).toEqual([]);
  });

  it('take the anchors from headings, not from fenced code', () => {
    const slugs = headingSlugs(
      '# Product rules\n## Login and actions\n```\n## not a heading\n```\n## Time zones',
    );
    expect([...slugs]).toEqual(['product-rules', 'login-and-actions', 'time-zones']);
  });

  it('read every cited heading with its document', () => {
    expect(citedHeadings('(docs/product.md#quotas) and [glossary](architecture.md#glossary)')).toEqual([
      { document: 'docs/product.md', slug: 'quotas' },
      { document: 'docs/architecture.md', slug: 'glossary' },
    ]);
  });
});
