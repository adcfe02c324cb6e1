import { describe, expect, it } from 'vitest';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { QWEN3_30B_A3B_MODEL } from '../../testing/documents.ts';
import { megatronExport } from './launch-args.ts';

// The Megatron launch's routing note follows training.moeLoadImbalance and training.moeRouter (issue 32 item 4):
// Megatron-LM has no flag for either, so no flag is written; --moe-router-force-load-balancing stays a note.
function config(training: Record<string, unknown>): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: { ...QWEN3_30B_A3B_MODEL, layers: 4, vocab: 32000 },
    training: { seqLen: 4096, globalBatch: 8, microBatch: 1, framework: 'megatron', ...training },
    parallel: { tp: 1, pp: 1, dp: 8, ep: 8 },
    cluster: { gpu: 'h100-sxm', gpusPerNode: 8 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

const BALANCED = 'the estimate assumes every expert gets an even share of the tokens';

describe('the routing note of the Megatron launch', () => {
  it('absent or 1: the balanced note, as before', () => {
    expect(megatronExport(config({})).text).toContain(BALANCED);
    expect(megatronExport(config({ moeLoadImbalance: 1 })).text).toContain(BALANCED);
  });
  it('1.3: names the assumed load, no flag for it', () => {
    const text = megatronExport(config({ moeLoadImbalance: 1.3 })).text;
    expect(text).toContain('the busiest expert-parallel rank gets 1.3 × the mean share');
    expect(text).not.toContain(BALANCED);
    expect(text).not.toMatch(/^\s*--moe-router-force-load-balancing/m);
  });
  it('the fake balanced gate: says Megatron-LM has none and what its nearest flag does', () => {
    const text = megatronExport(config({ moeRouter: 'fakeBalanced' })).text;
    expect(text).toContain("NeMo AutoModel's fake balanced gate");
    expect(text).toContain('Megatron-LM has no such gate');
    expect(text).not.toMatch(/^\s*--moe-router-force-load-balancing/m);
  });
});
