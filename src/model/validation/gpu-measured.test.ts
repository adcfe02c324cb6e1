// The engine against training steps measured on a real GPU by this project
// (validation/gpu/h200-hf-peft-2026-12-04.json, scripts/gpu/measure-memory.py; what was run
// is in validation/gpu/README.md): Llama 3.2 1B and 3.1 8B shapes with random weights on one
// H200, transformers' eager modeling code with SDPA, bf16 weights, fused AdamW with bf16
// states, full training and PEFT LoRA r16 on all seven linears, with and without full
// activation checkpointing. The documents below say exactly that.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimate } from '../estimate.ts';
import { predictedMemoryForMetric } from './validate.ts';

interface MeasuredCase {
  readonly shape: 'llama3.2-1b' | 'llama3.1-8b';
  readonly method: 'full' | 'lora';
  readonly seqLen: number;
  readonly microBatch: number;
  readonly checkpointing: boolean;
  readonly trainableParams: number;
  readonly peakAllocated: number;
  readonly stepSeconds: number;
}

const measured = JSON.parse(readFileSync(new URL('../../../validation/gpu/h200-hf-peft-2026-12-04.json', import.meta.url), 'utf8')) as {
  cases: MeasuredCase[];
};

// meta-llama/Llama-3.2-1B and Llama-3.1-8B config.json.
const SHAPES = {
  'llama3.2-1b': {
    name: 'Llama 3.2 1B shape',
    layers: 16,
    hidden: 2048,
    heads: 32,
    kvHeads: 8,
    headDim: 64,
    ffnHidden: 8192,
    ffnType: 'swiglu',
    vocab: 128256,
    tiedEmbeddings: true,
  },
  'llama3.1-8b': {
    name: 'Llama 3.1 8B shape',
    layers: 32,
    hidden: 4096,
    heads: 32,
    kvHeads: 8,
    headDim: 128,
    ffnHidden: 14336,
    ffnType: 'swiglu',
    vocab: 128256,
    tiedEmbeddings: false,
  },
} as const;

function documentOf(c: MeasuredCase): object {
  return {
    version: 1,
    model: SHAPES[c.shape],
    training: {
      seqLen: c.seqLen,
      globalBatch: c.microBatch,
      microBatch: c.microBatch,
      precision: 'bf16',
      optimizer: 'adam',
      masterWeights: false,
      gradDtype: 'bf16',
      optimizerStateDtype: 'bf16',
      recompute: c.checkpointing ? 'full' : 'none',
      flashAttention: true,
      attentionKernel: 'sdpa',
      modelCode: 'transformers',
      loss: 'eager',
      ...(c.method === 'lora' ? { adapter: { method: 'lora', rank: 16, modules: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] } } : {}),
    },
    parallel: { tp: 1, pp: 1, dp: 1, cp: 1, ep: 1, zero: 0 },
    cluster: { gpu: 'h200', gpusPerNode: 1, gpus: 1 },
  };
}

const label = (c: MeasuredCase) => `${c.shape} ${c.method} seq ${c.seqLen} × ${c.microBatch}${c.checkpointing ? ', checkpointed' : ''}`;
const allocatedError = (c: MeasuredCase) => (predictedMemoryForMetric(documentOf(c), 'peak allocated') ?? NaN) / c.peakAllocated - 1;

describe('steps measured on one H200 (transformers + PEFT)', () => {
  it('holds the nine cases the script measured', () => {
    expect(measured.cases).toHaveLength(9);
  });

  // Every measured peak within 25 %: the full-training cases without checkpointing are over-predicted
  // (+13 % and +24 %) because one micro-batch with zero_grad(set_to_none=True) creates the gradients
  // while backward frees the activations, and the engine adds the two (a safe-side error).
  it.each(measured.cases.map((c) => ({ name: label(c), c })))('peak allocated of $name within 25 %', ({ c }) => {
    expect(Math.abs(allocatedError(c))).toBeLessThan(0.25);
  });

  // PEFT's fp32 adapters save an fp32 copy of each adapted matrix's input (memory/adapter.ts
  // peftFp32Adapters): without that term these two were under-predicted by 19 % and 17 %.
  it.each(measured.cases.filter((c) => c.method === 'lora' && !c.checkpointing).map((c) => ({ name: label(c), c })))(
    'LoRA without checkpointing, $name: peak allocated within 10 %',
    ({ c }) => {
      expect(Math.abs(allocatedError(c))).toBeLessThan(0.1);
    },
  );

  // Adapter parameters: r·(in + out) per adapted matrix (Hu et al. 2021); PEFT counted them on the GPU.
  it.each(measured.cases.filter((c) => c.method === 'lora').map((c) => ({ name: label(c), c })))(
    '$name trains the parameters PEFT counted',
    ({ c }) => {
      const h = SHAPES[c.shape].hidden;
      const f = SHAPES[c.shape].ffnHidden;
      const kv = SHAPES[c.shape].kvHeads * SHAPES[c.shape].headDim;
      const perLayer = 16 * (h + h + (h + kv) * 2 + (h + h) + 2 * (h + f) + (f + h));
      expect(perLayer * SHAPES[c.shape].layers).toBe(c.trainableParams);
    },
  );

  // Full training of the 8B shape is compute-bound: its step time within 10 % both ways.
  it.each(measured.cases.filter((c) => c.shape === 'llama3.1-8b' && c.method === 'full').map((c) => ({ name: label(c), c })))(
    'step time of $name within 10 %',
    ({ c }) => {
      const out = estimate(documentOf(c));
      expect(out.errors).toEqual([]);
      expect(Math.abs((out.throughput?.stepSeconds ?? NaN) / c.stepSeconds - 1)).toBeLessThan(0.1);
    },
  );

  // LoRA on the 8B shape without checkpointing: the adapters' eager dispatch (adapter-time.ts
  // EAGER_OP_HOST_SECONDS, fitted on the Qwen README rows) and PEFT's fp32 traffic bring it
  // from -35 % to within 15 %. (Checkpointed LoRA and the 1B shape stay host-bound beyond what
  // the engine counts: -27 % and below; they are reported here, not asserted.)
  it('step time of the 8B shape with LoRA, no checkpointing, within 15 %', () => {
    const c = measured.cases.find((x) => x.shape === 'llama3.1-8b' && x.method === 'lora' && !x.checkpointing);
    if (!c) throw new Error('case missing');
    const out = estimate(documentOf(c));
    expect(Math.abs((out.throughput?.stepSeconds ?? NaN) / c.stepSeconds - 1)).toBeLessThan(0.15);
  });
});

interface CompileCase {
  readonly compiled: boolean;
  readonly seqLen: number;
  readonly checkpointing: boolean;
  readonly peakAllocated: number;
}
const compileRuns = JSON.parse(readFileSync(new URL('../../../validation/gpu/h200-compile-2026-12-04.json', import.meta.url), 'utf8')) as {
  cases: CompileCase[];
};

// validation/gpu/h200-compile-2026-12-04.json: the Llama 3.2 1B shape at seq 4096 on one H200, eager
// against torch.compile(model); transformers computes the loss inside the compiled forward.
function compileDocument(c: CompileCase): object {
  const base = documentOf({
    shape: 'llama3.2-1b',
    method: 'full',
    seqLen: c.seqLen,
    microBatch: 1,
    checkpointing: c.checkpointing,
    trainableParams: 0,
    peakAllocated: 0,
    stepSeconds: 0,
  }) as { training: object };
  return { ...base, training: { ...base.training, compile: c.compiled, loss: c.compiled ? 'compiled' : 'eager' } };
}

describe('eager against torch.compile, measured on one H200', () => {
  // Without the partitioner's recomputation of pointwise outputs (activations.ts `compiled`) the
  // compiled run without checkpointing read +31 % (19.79 GiB against 15.09).
  it.each(compileRuns.cases.map((c) => ({ name: `${c.compiled ? 'compiled' : 'eager'}${c.checkpointing ? ', checkpointed' : ''}`, c })))(
    '$name: peak allocated within 10 %',
    ({ c }) => {
      const predicted = predictedMemoryForMetric(compileDocument(c), 'peak allocated') ?? NaN;
      expect(Math.abs(predicted / c.peakAllocated - 1)).toBeLessThan(0.1);
    },
  );
});
