// Cross-field rules: which parallel layouts can run a model at all. The sliders,
// the search and the document validator all ask these same functions.

import { moeLoadAboveEpProblem } from './moe-routing.ts';
import {
  cudaGraphProblem,
  epOverlapProblem,
  frameworkOffloadProblem,
  frameworkScheduleProblem,
  frameworkZeroProblem,
  microBatchMinimumProblem,
  precisionProblem,
} from './capabilities.ts';
import type { ModelConfig, ParallelConfig, RunConfig, StackConfig, TrainingConfig } from './types.ts';
import { layoutFrameworkProblem, pipelineLayoutProblem } from './pipeline-layout.ts';
import { slidingWindowProblem } from './sliding-window.ts';

export interface Issues {
  readonly errors: string[];
  readonly warnings: string[];
}

/** Why a tensor-parallel degree cannot split this model's attention, or null when it can. */
export function tpProblem(model: ModelConfig, tp: number): string | null {
  if (model.heads % tp !== 0) return `${tp} does not divide model.heads=${model.heads}`;
  if (!model.mla && model.kvHeads % tp !== 0) return `${tp} does not divide model.kvHeads=${model.kvHeads}`;
  return null;
}

/**
 * Why pp × vpp stages cannot hold this model's layers, or null. Uneven splits are
 * allowed: Megatron-Core can count the embedding and the loss as one pipeline
 * "layer" each (account_for_embedding/loss_in_pipeline_split), so up to
 * layers + 2 chunks are valid; the busiest chunk gets ceil(layers / chunks) layers.
 */
export function ppProblem(model: ModelConfig, pp: number, vpp: number): string | null {
  if (pp * vpp > model.layers + 2) return `pp × vpp = ${pp}×${vpp} is more than model.layers + 2 = ${model.layers + 2} pipeline chunks`;
  return null;
}

/**
 * Why the layer counts the document gives per pipeline stage (training.activationOffloadLayers,
 * training.recomputeLayers) exceed what a stage of a pp-stage pipeline holds; empty when none do.
 */
export function stageLayerCountProblems(
  model: ModelConfig,
  stack: Pick<StackConfig, 'activationOffloadLayers' | 'recomputeLayers'>,
  pp: number,
): string[] {
  const problems: string[] = [];
  const stageLayers = Math.ceil(model.layers / pp);
  if (stack.activationOffloadLayers > stageLayers) {
    problems.push(
      `training.activationOffloadLayers: ${stack.activationOffloadLayers} is more layers than a pipeline stage holds (${stageLayers})`,
    );
  }
  if (stack.recomputeLayers !== null && stack.recomputeLayers > stageLayers) {
    problems.push(`training.recomputeLayers: ${stack.recomputeLayers} is more layers than a pipeline stage holds (${stageLayers})`);
  }
  return problems;
}

export function epProblem(model: ModelConfig, p: Pick<ParallelConfig, 'ep' | 'tp' | 'dp' | 'cp'>): string | null {
  if (p.ep === 1) return null;
  if (!model.moe) return `${p.ep} needs a mixture-of-experts model (model.moe is null)`;
  if (model.moe.experts % p.ep !== 0) return `${p.ep} does not divide model.moe.experts=${model.moe.experts}`;
  const ranks = p.tp * p.dp * p.cp;
  // Megatron-Core forms expert-parallel groups from the tp × dp × cp ranks of a stage.
  if (ranks % p.ep !== 0) return `${p.ep} does not divide tp × dp × cp = ${ranks}`;
  return null;
}

/**
 * Why an explicit expert tensor-parallel degree cannot split the experts, or null.
 * Megatron-Core builds expert groups of ep × etp ranks from a stage's tp × dp × cp
 * (megatron/core/parallel_state.py, expert_tensor_and_model_parallel groups), and etp
 * splits each expert's FFN width like tp splits a dense one.
 */
export function etpProblem(model: ModelConfig, p: Pick<ParallelConfig, 'ep' | 'etp' | 'tp' | 'dp' | 'cp'>): string | null {
  if (p.etp == null || !model.moe) return null;
  if (model.moe.expertFfnHidden % p.etp !== 0) return `${p.etp} does not divide model.moe.expertFfnHidden=${model.moe.expertFfnHidden}`;
  const ranks = p.tp * p.dp * p.cp;
  if (ranks % (p.ep * p.etp) !== 0) return `ep × etp = ${p.ep}×${p.etp} does not divide tp × dp × cp = ${ranks}`;
  return null;
}

export function batchProblem(training: Pick<TrainingConfig, 'globalBatch' | 'microBatch'>, dp: number): string | null {
  const perStep = training.microBatch * dp;
  if (training.globalBatch % perStep !== 0) {
    return `${training.globalBatch} is not a multiple of training.microBatch × parallel.dp = ${training.microBatch}×${dp}`;
  }
  return null;
}

export function cpProblem(training: Pick<TrainingConfig, 'seqLen'>, cp: number): string | null {
  // Load-balanced causal context parallelism cuts the sequence into 2·cp chunks (Megatron-Core).
  if (cp > 1 && training.seqLen % (2 * cp) !== 0) return `${cp} needs training.seqLen divisible by 2×cp = ${2 * cp}`;
  return null;
}

export function scheduleProblem(p: Pick<ParallelConfig, 'pp' | 'vpp' | 'schedule'>): string | null {
  if (p.schedule === 'interleaved-1f1b' && p.vpp < 2) return 'interleaved-1f1b needs parallel.vpp of 2 or more';
  if (p.schedule !== 'interleaved-1f1b' && p.vpp > 1) return `vpp=${p.vpp} needs schedule "interleaved-1f1b"`;
  if (p.schedule === 'dualpipe' && p.pp % 2 !== 0) return `dualpipe needs an even parallel.pp, got ${p.pp}`;
  return null;
}

/** Every rule, field-named, for a complete configuration. */
/** The model's own rules, whatever the layout: each as `field: problem`. */
export function modelProblems(model: ModelConfig): string[] {
  const errors: string[] = [];
  if (model.kvHeads > model.heads || model.heads % model.kvHeads !== 0) {
    errors.push(`model.kvHeads: ${model.kvHeads} must divide model.heads=${model.heads}`);
  }
  if (model.moe) {
    if (model.moe.topK > model.moe.experts)
      errors.push(`model.moe.topK: ${model.moe.topK} is more than model.moe.experts=${model.moe.experts}`);
    if (model.moe.denseLayers > model.layers)
      errors.push(`model.moe.denseLayers: ${model.moe.denseLayers} is more than model.layers=${model.layers}`);
  }
  const window = slidingWindowProblem(model);
  if (window) errors.push(window);
  return errors;
}

export function checkConsistency(c: RunConfig): Issues {
  const errors: string[] = [];
  const warnings: string[] = [];
  const { model, training, parallel: p } = c;
  const add = (field: string, problem: string | null) => {
    if (problem) errors.push(`${field}: ${problem}`);
  };
  errors.push(...modelProblems(model));
  add('parallel.tp', tpProblem(model, p.tp));
  add('parallel.pp', ppProblem(model, p.pp, p.vpp));
  add('parallel.ep', epProblem(model, p));
  add('parallel.etp', etpProblem(model, p));
  add('training.globalBatch', batchProblem(training, p.dp));
  add('parallel.cp', cpProblem(training, p.cp));
  add('parallel.schedule', scheduleProblem(p));
  if (p.pipelineLayout != null) {
    add('parallel.pipelineLayout', layoutFrameworkProblem(c.stack.framework) ?? pipelineLayoutProblem(p.pipelineLayout, model, p));
  }
  if (training.offload.parameters && p.zero !== 3) {
    errors.push('training.offload.parameters: parameter offload needs parallel.zero=3 (ZeRO-Infinity)');
  }
  if (model.layers % (p.pp * p.vpp) !== 0 && p.pipelineLayout == null && errors.length === 0) {
    warnings.push(
      `parallel.pp: model.layers=${model.layers} does not split evenly over pp × vpp = ${p.pp * p.vpp} ` +
        `stages; the busiest stage gets ${Math.ceil(model.layers / (p.pp * p.vpp))} layers per chunk`,
    );
  }
  // Hardware and framework capabilities (capabilities.ts): a precision without its tensor
  // cores and a schedule the framework does not run (or on too few micro-batches) are
  // refused; a ZeRO stage, offload, EP overlap or CUDA graphs outside the framework's rules
  // are estimated as asked, with a warning (the search, sweeps and fixes offer only what it runs).
  const warn = (field: string, problem: string | null) => {
    if (problem) warnings.push(`${field}: ${problem}`);
  };
  add('training.precision', precisionProblem(c.cluster.gpu, training.precision));
  const { stack } = c;
  add('parallel.schedule', frameworkScheduleProblem(stack.framework, p));
  if (training.globalBatch % (training.microBatch * p.dp) === 0) {
    add('training.microBatch', microBatchMinimumProblem(stack.framework, p, training.globalBatch / (training.microBatch * p.dp)));
  }
  warn('parallel.zero', frameworkZeroProblem(stack.framework, p.zero, p.pp));
  warn('training.moeLoadImbalance', moeLoadAboveEpProblem(c));
  warn('training.offload', frameworkOffloadProblem(stack.framework, training.offload));
  if (stack.overlap.epComm) {
    warn(
      'training.overlap.epComm',
      epOverlapProblem({
        framework: stack.framework,
        model,
        ep: p.ep,
        pp: p.pp,
        vpp: p.vpp,
        schedule: p.schedule,
        recompute: training.recompute,
        dispatcher: stack.moeDispatcher,
        precision: training.precision,
      }),
    );
  }
  if (stack.cudaGraph !== 'none')
    warn('training.cudaGraph', cudaGraphProblem(stack.framework, stack.cudaGraph, model, stack.moeDispatcher));
  errors.push(...stageLayerCountProblems(model, stack, p.pp));
  if (p.sequenceParallel && p.tp === 1) warnings.push('parallel.sequenceParallel: has no effect with tp=1');
  return { errors, warnings };
}
