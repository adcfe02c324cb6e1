import { describe, it, expect } from 'vitest';
import { parseDocument } from '../input/index.ts';
import { estimateConfig } from '../estimate.ts';
import { EXPLAINED_FIGURES, evaluateEquation, explainFigure, type Equation, type Quantity } from './explain.ts';
import { MODEL_PRESETS } from '../catalog/all.ts';
import { MOE_TIME } from '../calibration.ts';
import type { RunConfig } from '../input/index.ts';
import type { UncertaintyTable } from '../validation/index.ts';

const TABLE: UncertaintyTable = {
  lowerQuantile: 0.05,
  upperQuantile: 0.95,
  throughput: { lowerError: -0.2, upperError: 0.25, rows: 10 },
  memory: { lowerError: -0.2, upperError: 0.25, rows: 10 },
};

const q = (value: number): Quantity => ({ name: 'x', value, unit: 'count' });

function config(doc: unknown): RunConfig {
  const parsed = parseDocument(doc);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

/**
 * A two-layer Llama-style model small enough to count by hand: per layer, attention
 * Q, K, V, O 4 · 64² = 16,384 (4 heads of 16, as many KV heads), SwiGLU 3 · 64 · 256
 * = 49,152, two RMSNorms 2 · 64 = 128: 65,664; two layers 131,328; untied embedding
 * and output 2 · 1000 · 64 = 128,000; final norm 64. Total 259,392 parameters.
 */
const TINY = {
  version: 1,
  model: {
    name: 'tiny',
    layers: 2,
    hidden: 64,
    heads: 4,
    kvHeads: 4,
    ffnHidden: 256,
    ffnType: 'swiglu',
    vocab: 1000,
    tiedEmbeddings: false,
  },
  training: {
    seqLen: 128,
    globalBatch: 8,
    microBatch: 1,
    precision: 'bf16',
    optimizer: 'adam',
    masterWeights: true,
    gradDtype: 'fp32',
    recompute: 'none',
  },
  parallel: { tp: 1, pp: 1, dp: 1, zero: 0 },
  cluster: { gpu: 'h100-sxm', gpus: 1 },
};
const TINY_PARAMETERS = 259_392;

const llama70b = MODEL_PRESETS.find((p) => p.id === 'llama3-70b')?.model;
const deepseek = MODEL_PRESETS.find((p) => p.id === 'deepseek-v3')?.model;

/** Layouts that exercise every branch: ZeRO 0–3, experts sharded apart from dense weights, offload, GPipe. */
const DOCUMENTS: readonly [string, unknown][] = [
  ['tiny, one GPU', TINY],
  [
    'Llama 3 70B, TP 8 × PP 4 × DP 2, ZeRO-1 (the page default)',
    {
      version: 1,
      model: llama70b,
      training: { seqLen: 8192, globalBatch: 256, microBatch: 1, recompute: 'selective' },
      parallel: { tp: 8, pp: 4, dp: 2, zero: 1, sequenceParallel: true, schedule: '1f1b' },
      cluster: { gpu: 'h100-sxm', gpus: 64 },
    },
  ],
  [
    'Llama 3 70B, FSDP (ZeRO-3) on 64 GPUs, GPipe off',
    {
      version: 1,
      model: llama70b,
      training: { seqLen: 4096, globalBatch: 128, microBatch: 1, recompute: 'full' },
      parallel: { tp: 1, pp: 1, dp: 64, zero: 3 },
      cluster: { gpu: 'h100-sxm', gpus: 64 },
    },
  ],
  [
    'Llama 3 70B, ZeRO-2 with optimizer offload, GPipe',
    {
      version: 1,
      model: llama70b,
      training: { seqLen: 4096, globalBatch: 64, microBatch: 1, offload: { optimizer: true, parameters: false } },
      parallel: { tp: 8, pp: 2, dp: 4, zero: 2, schedule: 'gpipe' },
      cluster: { gpu: 'h100-sxm', gpus: 64 },
    },
  ],
  [
    'Llama 3 70B, Megatron-FSDP with fp8 tensorwise weights on B200 (one-byte layer weights)',
    {
      version: 1,
      model: llama70b,
      training: { seqLen: 8192, globalBatch: 128, microBatch: 1, precision: 'fp8', framework: 'megatron', fp8Recipe: 'tensorwise' },
      parallel: { tp: 1, pp: 1, dp: 64, zero: 3 },
      cluster: { gpu: 'b200', gpus: 64 },
    },
  ],
  [
    'DeepSeek-V3, EP 64, interleaved',
    {
      version: 1,
      model: deepseek,
      training: { seqLen: 4096, globalBatch: 8192, microBatch: 1, precision: 'fp8', recompute: 'selective' },
      parallel: { tp: 1, pp: 4, dp: 256, ep: 64, vpp: 8, zero: 3, schedule: 'interleaved-1f1b' },
      cluster: { gpu: 'h100-sxm', gpus: 1024 },
    },
  ],
];

function expectEvaluatesToResult(line: Equation, what: string): void {
  if (line.operands.length === 0) return;
  const value = evaluateEquation(line.operands, line.operators);
  const scale = Math.max(Math.abs(line.result.value), 1e-300);
  expect(Math.abs(value - line.result.value) / scale, `${what}: ${line.id}`).toBeLessThan(1e-9);
}

describe('evaluateEquation', () => {
  it('multiplies and divides before it adds and subtracts', () => {
    expect(evaluateEquation([q(2), q(3), q(4)], ['+', '×'])).toBe(14);
    expect(evaluateEquation([q(12), q(3), q(2)], ['÷', '÷'])).toBe(2);
    expect(evaluateEquation([q(1), q(6), q(2), q(3)], ['−', '÷', '÷'])).toBe(0);
    expect(evaluateEquation([q(2), q(5), q(3), q(4)], ['×', '+', '×'])).toBe(22);
  });

  it('is NaN for a malformed line', () => {
    expect(evaluateEquation([], [])).toBeNaN();
    expect(evaluateEquation([q(1), q(2)], [])).toBeNaN();
  });
});

describe('explainFigure', () => {
  for (const [what, doc] of DOCUMENTS) {
    it(`every formula, evaluated, gives the figure it explains: ${what}`, () => {
      const c = config(doc);
      const output = estimateConfig(c);
      expect(output.errors).toEqual([]);
      for (const figure of EXPLAINED_FIGURES) {
        const explanation = explainFigure(figure, c, output, TABLE);
        expect(explanation, figure).not.toBeNull();
        for (const line of explanation?.equations ?? []) expectEvaluatesToResult(line, `${what} / ${figure}`);
      }
    });

    it(`memory-total substitutes the output's own terms: ${what}`, () => {
      const c = config(doc);
      const output = estimateConfig(c);
      const lines = explainFigure('memory-total', c, output, TABLE)?.equations ?? [];
      const total = lines.find((l) => l.id === 'total');
      const perGpu = output.memory.perGpu;
      // The one memory figure: allocated + the allocator's reserve + the runtime outside it = deviceUsed.
      expect(total?.result.value).toBe(output.memory.deviceUsed);
      expect(total?.operands.map((o) => o.value)).toEqual([
        perGpu.total,
        output.memory.reserved - perGpu.total,
        output.memory.deviceUsed - output.memory.reserved,
      ]);
      const allocated = lines.find((l) => l.id === 'allocated-peak');
      expect(allocated?.result.value).toBe(perGpu.total);
      expect(allocated?.operands.map((o) => o.value)).toEqual([
        perGpu.parameters,
        perGpu.gradients,
        perGpu.optimizer,
        perGpu.activations,
        perGpu.other,
      ]);
      for (const part of ['parameters', 'gradients', 'optimizer', 'activations', 'other'] as const) {
        expect(lines.find((l) => l.id === part)?.result.value, part).toBe(perGpu[part]);
      }
      // The rule of the OOM verdict: "tight" from capacity × (1 − 20 %).
      expect(lines.find((l) => l.id === 'tight-from')?.result.value).toBeCloseTo(0.8 * output.memory.capacity, 0);
    });
  }

  it("writes the tiny model's model states as bytes per value × its 259,392 parameters", () => {
    const c = config(TINY);
    const output = estimateConfig(c);
    const lines = explainFigure('memory-total', c, output, TABLE)?.equations ?? [];
    const operands = (id: string) => lines.find((l) => l.id === id)?.operands.map((o) => o.value);
    // No ZeRO, one GPU: bf16 weights 2 B, fp32 gradients 4 B, Adam 8 B of moments + 4 B master copy = 12 B (ZeRO §3).
    expect(operands('parameters')).toEqual([2, TINY_PARAMETERS]);
    expect(operands('gradients')).toEqual([4, TINY_PARAMETERS]);
    expect(operands('optimizer')).toEqual([12, TINY_PARAMETERS]);
    expect(output.memory.perGpu.parameters).toBe(2 * TINY_PARAMETERS);
  });

  it('writes tokens per second as global batch × sequence length ÷ step time', () => {
    const c = config(TINY);
    const output = estimateConfig(c);
    const line = explainFigure('tokens-per-second', c, output, TABLE)?.equations[0];
    // 8 sequences × 128 tokens = 1,024 tokens per step.
    expect(line?.operands.slice(0, 2).map((o) => o.value)).toEqual([8, 128]);
    expect(line?.operands[2]?.value).toBe(output.throughput?.stepSeconds);
  });

  it('explains nothing for an invalid output', () => {
    const c = config(TINY);
    const output = { ...estimateConfig(c), errors: ['model.layers: must be positive'] };
    expect(explainFigure('memory-total', c, output, TABLE)).toBeNull();
  });
});

describe('the step time of a MoE run names its host-sync and EP-exposure terms (issue 20)', () => {
  // Values read from the engine's fitted constants (calibration.ts MOE_TIME), as moe-time.ts uses them.
  const mixtral = (training: Record<string, unknown>) =>
    config({
      version: 1,
      model: {
        name: 'Mixtral 8x7B',
        layers: 32,
        hidden: 4096,
        heads: 32,
        kvHeads: 8,
        ffnHidden: 14336,
        ffnType: 'swiglu',
        vocab: 32000,
        moe: { experts: 8, topK: 2, expertFfnHidden: 14336 },
      },
      training: { seqLen: 4096, globalBatch: 256, microBatch: 1, framework: 'megatron', ...training },
      parallel: { tp: 2, pp: 4, dp: 8, ep: 8 },
      cluster: { gpu: 'h100-sxm' },
    });
  const notes = (c: RunConfig) => explainFigure('step-time', c, estimateConfig(c), TABLE)?.notes ?? [];

  it('all-to-all without graphs: its per-layer wait in ms; without overlap the fitted exposed share', () => {
    const n = notes(mixtral({ moeDispatcher: 'alltoall' }));
    // Mixtral E8 over EP 8 (moe-host.ts): after the sync 23 operators and 3 × 2 × 8 NCCL peer calls, after the stall; backward 2
    // × the 43 computing operators and the peer calls once.
    const peer = 48 * MOE_TIME.ncclPeerCallOpShare;
    const issue = (23 + peer) * MOE_TIME.eagerOpHostSeconds;
    const backward = (2 * 43 + peer) * MOE_TIME.eagerOpHostSeconds;
    expect(n).toContain(
      `Host-bound floor, inside "compute": each MoE layer's forward stalls ` +
        `${(MOE_TIME.syncStallSeconds * 1e3).toFixed(2)} ms per ` +
        `micro-batch at the dispatcher's synchronisation (Megatron-Core ` +
        `token_dispatcher.py), then runs its experts no faster than the host issues what follows ` +
        `(${(issue * 1e3).toFixed(2)} ms); its backward takes at least ${(backward * 1e3).toFixed(2)} ` +
        `ms, ${Math.round(43 + peer)} eager operators forward (alltoall dispatcher, no CUDA graphs).`,
    );
    expect(
      n.some(
        (x) => x.startsWith(`Exposed EP communication: ${Math.round(MOE_TIME.exposedFraction * 100)} % `) && x.endsWith('not overlapped.'),
      ),
    ).toBe(true);
  });

  it('whole-iteration graphs: no host wait; EP overlap: the overlapped share', () => {
    const n = notes(mixtral({ cudaGraph: 'full', overlap: { epComm: true } }));
    expect(n.some((x) => x.startsWith('Host-bound floor: none'))).toBe(true);
    expect(n.some((x) => x.startsWith(`Exposed EP communication: ${Math.round(MOE_TIME.overlappedExposedFraction * 100)} % `))).toBe(true);
  });

  it('a dense run has no MoE note', () => {
    const dense = config({ ...TINY, training: { ...TINY.training, moeDispatcher: 'hybridep' } });
    expect(notes(dense).some((x) => /Dispatcher|Exposed EP/.test(x))).toBe(false);
  });
});

describe('explainFigure on a fine-tune (training.adapter)', () => {
  const llama8b = MODEL_PRESETS.find((p) => p.id === 'llama3-8b')?.model;
  const FINETUNES: readonly [string, unknown][] = [
    [
      'Llama 3 8B QLoRA, FSDP on 8 GPUs',
      {
        version: 1,
        model: llama8b,
        training: { seqLen: 2048, globalBatch: 16, microBatch: 1, recompute: 'full', adapter: { method: 'qlora', rank: 16 } },
        parallel: { tp: 1, pp: 1, dp: 8, zero: 3 },
        cluster: { gpu: 'a100-80gb', gpus: 8 },
      },
    ],
    [
      'Llama 3 8B LoRA on q, v, one GPU',
      {
        version: 1,
        model: llama8b,
        training: {
          seqLen: 2048,
          globalBatch: 2,
          microBatch: 2,
          recompute: 'none',
          adapter: { method: 'lora', rank: 8, modules: ['q', 'v'] },
        },
        parallel: { tp: 1, pp: 1, dp: 1, zero: 0 },
        cluster: { gpu: 'a100-80gb', gpus: 1 },
      },
    ],
  ];
  for (const [what, doc] of FINETUNES) {
    it(`every formula, evaluated, gives the figure it explains, the frozen weights a term of the total: ${what}`, () => {
      const c = config(doc);
      const output = estimateConfig(c);
      expect(output.errors).toEqual([]);
      for (const figure of EXPLAINED_FIGURES) {
        for (const line of explainFigure(figure, c, output, TABLE)?.equations ?? []) expectEvaluatesToResult(line, `${what} / ${figure}`);
      }
      const lines = explainFigure('memory-total', c, output, TABLE)?.equations ?? [];
      const perGpu = output.memory.perGpu;
      expect(lines.find((l) => l.id === 'allocated-peak')?.operands.map((o) => o.value)).toEqual([
        perGpu.frozen,
        perGpu.parameters,
        perGpu.gradients,
        perGpu.optimizer,
        perGpu.activations,
        perGpu.other,
      ]);
      expect(lines.find((l) => l.id === 'frozen')?.result.value).toBe(perGpu.frozen);
    });
  }
});
