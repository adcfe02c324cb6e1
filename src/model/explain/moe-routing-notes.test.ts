import { describe, expect, it } from 'vitest';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { QWEN3_30B_A3B_MODEL } from '../../testing/documents.ts';
import { moeStepNotes } from './moe.ts';

// The step-time explanation says what the document states of MoE routing (issue 32 item 4).
function run(training: Record<string, unknown> = {}): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: { ...QWEN3_30B_A3B_MODEL, layers: 4, vocab: 32000 },
    training: { seqLen: 4096, globalBatch: 8, microBatch: 1, framework: 'megatron', moeDispatcher: 'deepep', ...training },
    parallel: { tp: 1, pp: 1, dp: 8, ep: 8 },
    cluster: { gpu: 'h100-sxm', gpusPerNode: 8 },
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

const routing = (c: RunConfig) => moeStepNotes(c).filter((n) => n.startsWith('Routing:'));

describe('explain says what the document states of routing', () => {
  it('a stated load and the fake gate each get one line; balanced learned routing none', () => {
    expect(routing(run())).toEqual([]);
    expect(routing(run({ moeLoadImbalance: 1 }))).toEqual([]);
    expect(routing(run({ moeLoadImbalance: 1.3 }))).toHaveLength(1);
    expect(routing(run({ moeLoadImbalance: 1.3 }))[0]).toContain('takes 1.3 × the mean routed tokens');
    expect(routing(run({ moeRouter: 'fakeBalanced' }))[0]).toContain("AutoModel's fake balanced gate");
  });
});
