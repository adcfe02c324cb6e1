import { describe, expect, it } from 'vitest';
import { QWEN3_30B_A3B_MODEL } from '../testing/documents.ts';
import { parseDocument } from '../model/input/index.ts';
import { busiestExpertRankLoad, moeRouterOf } from '../model/structure/index.ts';
import { encodeConfigFragment, encodeShareFragment, readHash } from './url-codec.ts';
import { DEFAULT_DOCUMENT } from './defaults.ts';

// training.moeLoadImbalance and training.moeRouter in the link (issue 32 item 4): links carry the
// document as written, so both come back exactly, and a link from before them opens balanced and learned.

const base = DEFAULT_DOCUMENT as { training: Record<string, unknown>; parallel: Record<string, unknown> };

function moeDoc(routing: Record<string, unknown>) {
  return {
    ...DEFAULT_DOCUMENT,
    model: { ...QWEN3_30B_A3B_MODEL },
    training: { ...base.training, ...routing },
    parallel: { ...base.parallel, tp: 1, pp: 1, dp: 64, ep: 8 },
  };
}

async function opened(fragment: string) {
  const read = await readHash(`#${fragment}`);
  const parsed = read.kind === 'document' ? parseDocument(read.document) : null;
  return { read, config: parsed?.ok ? parsed.config : null };
}

describe('MoE routing fields in the link', () => {
  for (const routing of [{ moeLoadImbalance: 1.35 }, { moeRouter: 'fakeBalanced' }]) {
    it(`${JSON.stringify(routing)} comes back exactly in both link kinds, and the engine reads it`, async () => {
      const doc = moeDoc(routing);
      for (const fragment of [await encodeShareFragment(doc), encodeConfigFragment(doc)]) {
        const { read, config } = await opened(fragment);
        expect(read).toMatchObject({ kind: 'document', document: doc });
        expect(config && busiestExpertRankLoad(config)).toBe(routing.moeLoadImbalance ?? 1);
        expect(config && moeRouterOf(config)).toBe(routing.moeRouter ?? 'learned');
      }
    });
  }
  it('a link written before the fields (neither key) opens balanced, with the learned router', async () => {
    const doc = moeDoc({});
    expect('moeLoadImbalance' in doc.training || 'moeRouter' in doc.training).toBe(false);
    const { read, config } = await opened(encodeConfigFragment(doc));
    expect(read).toMatchObject({ kind: 'document', document: doc });
    expect(config && busiestExpertRankLoad(config)).toBe(1);
    expect(config && moeRouterOf(config)).toBe('learned');
  });
});
