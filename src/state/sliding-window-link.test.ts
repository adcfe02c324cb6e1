import { describe, it, expect } from 'vitest';
import { parseDocument } from '../model/input/index.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { setAt, type Doc } from './doc.ts';
import { encodeConfigFragment, encodeShareFragment, readHash } from './url-codec.ts';

// model.slidingWindow travels in links as part of the document: a link written with it
// opens with it, and a link written before it (no key) opens exactly as before.

const WINDOWED = setAt(DEFAULT_DOCUMENT, ['model', 'slidingWindow'], {
  window: 128,
  layerTypes: ['sliding_attention', 'full_attention'],
});

async function opened(fragment: string): Promise<Doc> {
  const read = await readHash(`#${fragment}`);
  if (read.kind !== 'document') throw new Error(read.kind === 'error' ? read.message : 'no document');
  return read.document;
}

describe('links with a sliding window', () => {
  it('round-trip the window and its layer pattern, in share and #config= links', async () => {
    for (const fragment of [await encodeShareFragment(WINDOWED), encodeConfigFragment(WINDOWED)]) {
      const document = await opened(fragment);
      expect(document).toEqual(WINDOWED);
      const parsed = parseDocument(document);
      expect(parsed.ok && parsed.config.model.slidingWindow).toEqual({ window: 128, layerTypes: ['sliding_attention', 'full_attention'] });
    }
  });

  it('open links without the field as before: no window in the configuration', async () => {
    const document = await opened(await encodeShareFragment(DEFAULT_DOCUMENT));
    expect(document).toEqual(DEFAULT_DOCUMENT);
    const parsed = parseDocument(document);
    expect(parsed.ok && 'slidingWindow' in parsed.config.model).toBe(false);
  });
});
