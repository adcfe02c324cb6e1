import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../model/input/index.ts';
import { isEmbedSearch } from './share.ts';
import { SHARE_FORMAT, readHash } from './url-codec.ts';

// Links forever (issue "Hardening", part 2): every committed golden link in
// e2e/golden-links/ still decodes to exactly the document it was released with, and
// that document is still a valid configuration. The e2e golden-links spec then opens
// each one in the browser and compares the page's figures with the engine's.

const DIR = new URL('../../e2e/golden-links/', import.meta.url);

interface GoldenLink {
  readonly description: string;
  readonly url: string;
  readonly expect: { readonly document: Record<string, unknown> };
}

const goldens = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => [file, JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as GoldenLink] as const);

describe('golden links', () => {
  it('cover the current share format, #config= with and without padding, and the embed view', () => {
    const urls = goldens.map(([, g]) => g.url);
    expect(urls.some((u) => u.startsWith(`/#s=${SHARE_FORMAT}.`))).toBe(true);
    expect(urls.some((u) => /#config=[^&]*[^=&]$/.test(u))).toBe(true);
    expect(urls.some((u) => /#config=[^&]*=$/.test(u))).toBe(true);
    expect(urls.some((u) => u.startsWith('/?embed=1#'))).toBe(true);
  });

  for (const [file, golden] of goldens) {
    it(`${file}: ${golden.description}`, async () => {
      const url = new URL(golden.url, 'http://golden.invalid');
      const read = await readHash(url.hash);
      expect(read).toMatchObject({ kind: 'document' });
      expect(read.kind === 'document' && read.document).toStrictEqual(golden.expect.document);
      const parsed = parseDocument(golden.expect.document);
      expect(parsed.ok ? [] : parsed.errors).toEqual([]);
      expect(isEmbedSearch(url.search)).toBe(file.startsWith('embed-'));
    });
  }
});
