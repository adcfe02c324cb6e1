import { describe, expect, it } from 'vitest';
import { parseDocument } from '../model/input/index.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';
import { setAt } from './doc.ts';
import { evenPipelineLayoutText } from './options.ts';
import { encodeConfigFragment, encodeShareFragment, readHash } from './url-codec.ts';

// The default run: Llama 3 70B, 80 layers, PP 4, no MTP.
const STATED = 'Et*18|t*21|t*21|t*20L';

describe('parallel.pipelineLayout on the page', () => {
  it('a link with the field opens with it (both link kinds) and the engine reads it back', async () => {
    const doc = setAt(DEFAULT_DOCUMENT, ['parallel', 'pipelineLayout'], STATED);
    for (const fragment of [await encodeShareFragment(doc), encodeConfigFragment(doc)]) {
      const read = await readHash(`#${fragment}`);
      expect(read.kind === 'document' && read.document['parallel']).toMatchObject({ pipelineLayout: STATED });
      const parsed = read.kind === 'document' ? parseDocument(read.document) : null;
      expect(parsed?.ok && parsed.config.parallel.pipelineLayout).toBe(STATED);
    }
  });

  it('a link written before the field opens as before: no layout, the even split', async () => {
    const read = await readHash(`#${encodeConfigFragment(DEFAULT_DOCUMENT)}`);
    const parsed = read.kind === 'document' ? parseDocument(read.document) : null;
    expect(parsed?.ok && 'pipelineLayout' in parsed.config.parallel).toBe(false);
  });

  it("the field's placeholder is the even split in Megatron's words", () => {
    // 80 layers over 4 chunks: 20 each, E on the first, L on the last.
    expect(evenPipelineLayoutText(DEFAULT_DOCUMENT)).toBe('Et*20|t*20|t*20|t*20L');
    // PP 4 × VPP 3 = 12 chunks over 80 layers: ceil = 7, 4 short, the first, the last, the second and the eleventh (chunkLayerCounts).
    const interleaved = setAt(setAt(DEFAULT_DOCUMENT, ['parallel', 'vpp'], 3), ['parallel', 'schedule'], 'interleaved-1f1b');
    expect(evenPipelineLayoutText(interleaved)).toBe('Et*6|t*6|t*7|t*7|t*7|t*7|t*7|t*7|t*7|t*7|t*6|t*6L');
  });
});
