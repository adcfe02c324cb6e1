// The article's section 4 ("no silver bullet, only trade-offs"), one line per curve: what
// the reader is looking at and why it bends, with the source of each mechanism. The
// mechanisms themselves are the engine's (docs/methodology.md); these lines only say them.

import type { Held, SeqLenHold, SweepKnob, SweepResult } from '../../model/sweep/index.ts';
import { formatCount, formatTokenCount } from '../format.ts';

export interface KnobCaption {
  /** The trade-off in the article's words. */
  readonly tradeoff: string;
  /** Why the curve bends. */
  readonly why: string;
  readonly source: string;
}

export const KNOB_CAPTIONS: Readonly<Record<SweepKnob, KnobCaption>> = {
  tp: {
    tradeoff: 'Communication against computation',
    why:
      'more tensor parallelism splits every matrix over more GPUs, so weights and activations per GPU fall, but each layer ' +
      'adds all-reduces on the critical path, and past one node they cross the slower network.',
    source: 'Shoeybi et al. 2019 (Megatron-LM); Narayanan et al. 2021, §3.3',
  },
  pp: {
    tradeoff: 'Communication against computation',
    why:
      'more pipeline stages hold fewer layers each, but the bubble (p − 1)/(v·m) grows with the stages and the first stage ' +
      'keeps more micro-batches in flight.',
    source: 'Huang et al. 2019 (GPipe); Narayanan et al. 2021 (1F1B, interleaving)',
  },
  cp: {
    tradeoff: 'Throughput against memory',
    why:
      'context parallelism splits each sequence, so activations per GPU fall with CP, paid for with a ring exchange of keys ' +
      'and values in every attention layer.',
    source: 'Liu et al. 2023 (Ring Attention); Megatron-Core context parallelism',
  },
  ep: {
    tradeoff: 'Communication against computation',
    why:
      'expert parallelism spreads the experts over more GPUs, so expert weights per GPU fall, while every MoE layer sends ' +
      'tokens to their experts and back (all-to-all).',
    source: 'Lepikhin et al. 2020 (GShard); Fedus et al. 2021 (Switch Transformer)',
  },
  vpp: {
    tradeoff: 'Communication against computation',
    why: 'interleaving gives each GPU v smaller chunks: the bubble shrinks v-fold, but every micro-batch crosses v times as many stage boundaries.',
    source: 'Narayanan et al. 2021, §2.2 (interleaved 1F1B)',
  },
  microBatch: {
    tradeoff: 'Throughput against memory',
    why: 'larger micro-batches keep the tensor cores busier, but activations grow with them, and fewer micro-batches per step leave a larger pipeline bubble.',
    source: 'Korthikanti et al. 2022; Narayanan et al. 2021',
  },
  globalBatch: {
    tradeoff: 'Throughput against memory (gradient accumulation)',
    why:
      'more sequences per step amortise the pipeline bubble and the gradient sync over more work at the same memory; past ' +
      'the critical batch size it costs convergence, which this planner does not model.',
    source: 'McCandlish et al. 2018 (critical batch size); Narayanan et al. 2021',
  },
  zero: {
    tradeoff: 'Memory against communication',
    why:
      'ZeRO shards the optimizer states (1), the gradients (2) and the weights (3) over the data-parallel GPUs: 12–16 bytes ' +
      'per parameter fall towards 16/DP, while stage 3 gathers the weights again for every forward and backward.',
    source: 'Rajbhandari et al. 2020 (ZeRO)',
  },
  recompute: {
    tradeoff: 'Compute against memory',
    why:
      'recomputation drops saved activations and recomputes them in the backward pass: selective recomputation keeps most of ' +
      'the saving for a few per cent of FLOPs, full recomputation costs about a third more compute.',
    source: 'Chen et al. 2016; Korthikanti et al. 2022',
  },
  precision: {
    tradeoff: 'Precision against speed',
    why:
      'fewer bits per value run the tensor cores at twice the rate and halve activation bytes; master weights and optimizer ' +
      'states stay in fp32, and convergence is the risk the curve cannot show.',
    source: 'Micikevicius et al. 2018 (mixed precision); Micikevicius et al. 2022 (FP8 formats)',
  },
  seqLen: {
    tradeoff: 'Throughput against memory',
    why: 'attention FLOPs grow with the square of the sequence and activations with its length; at a fixed batch in sequences, each step carries more tokens.',
    source: 'Dao et al. 2022 (FlashAttention); Korthikanti et al. 2022',
  },
  gpus: {
    tradeoff: 'Time against money',
    why:
      'more data-parallel replicas cut the days almost in proportion while the gradient sync hides behind compute, so ' +
      'dollars stay nearly flat; then the sync and the failures of a larger cluster (MTBF / GPUs) bend the curve.',
    source: 'Goyal et al. 2017; Llama 3 (Dubey et al. 2024), §3.3.4 (interruptions)',
  },
  checkpointInterval: {
    tradeoff: 'Checkpoint frequency against training efficiency',
    why:
      'checkpointing often spends the run writing checkpoints; rarely, it loses more work at every failure. The best ' +
      'interval is about √(2 × write time × cluster MTBF).',
    source: 'Young 1974; Daly 2006',
  },
  moeDispatcher: {
    tradeoff: 'Communication against host waits',
    why:
      'the all-to-all dispatcher waits for the host to learn how many tokens each expert gets in every MoE layer; DeepEP and ' +
      'HybridEP send a token once per node it visits and at near link speed.',
    source: 'Megatron-Core token_dispatcher.py; deepseek-ai/DeepEP performance tables; NVIDIA Hybrid-EP blog (2026)',
  },
  epComm: {
    tradeoff: 'Communication against computation',
    why: "overlapping one micro-batch's token exchange with another's computation hides most of it, if there is compute to hide it behind.",
    source:
      'Megatron-LM --overlap-moe-expert-parallel-comm; Megatron-Bridge moe-comm-overlap skill card; DeepSeek-V3 report §3.2 (DualPipe)',
  },
  cudaGraph: {
    tradeoff: 'Launch overhead against memory',
    why:
      'captured graphs replay kernels without the CPU: per-module graphs trim launch time, a whole-iteration graph also ' +
      "removes the dispatcher's host wait; graphs keep static buffers.",
    source: 'Megatron-LM --cuda-graph-impl / --cuda-graph-scope; Megatron-Bridge cuda-graphs skill card',
  },
  etp: {
    tradeoff: 'Communication against memory',
    why:
      'splitting each expert over more GPUs divides its weights and optimizer state, but makes its matrices thinner and adds ' +
      'tensor-parallel traffic inside every expert.',
    source: 'Megatron-Core --expert-tensor-parallel-size (model_parallel_config.py)',
  },
};

/** The sequence-length curve's "why" when it holds tokens per step instead of sequences. */
const SEQ_LEN_HOLDING_TOKENS_WHY =
  'attention FLOPs grow with the square of the sequence and activations with its length; at fixed tokens per step, longer ' +
  'sequences mean fewer of them in each step.';

/** The caption of `knob`'s curve, as the sweep held it (the sequence-length curve says which of sequences or tokens per step it kept). */
export function knobCaption(knob: SweepKnob, seqLenHold: SeqLenHold | null): KnobCaption {
  const caption = KNOB_CAPTIONS[knob];
  return knob === 'seqLen' && seqLenHold === 'tokens' ? { ...caption, why: SEQ_LEN_HOLDING_TOKENS_WHY } : caption;
}

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** One held quantity in words: "global batch 1,024 sequences", "4.19 million tokens per step". */
export function heldInWords(h: Held): string {
  const n = typeof h.value === 'number' ? h.value : Number.NaN;
  switch (h.quantity) {
    case 'gpus':
      return plural(n, 'GPU', 'GPUs');
    case 'globalBatch':
      return `global batch ${plural(n, 'sequence', 'sequences')}`;
    case 'tokensPerStep':
      return `${formatTokenCount(n)} per step`;
    case 'seqLen':
      return `sequence length ${plural(n, 'token', 'tokens')}`;
    case 'microBatch':
      return `micro-batch ${plural(n, 'sequence', 'sequences')}`;
    case 'precision':
      return `precision ${String(h.value).toUpperCase()}`;
    case 'tokens':
      return `token budget ${formatTokenCount(n)}`;
  }
}

/** The caption line of what a curve holds fixed: "Holding: 256 GPUs, global batch 512 sequences, …" (null when it holds nothing named). */
export function holdingLine(result: Pick<SweepResult, 'held'>): string | null {
  return result.held.length > 0 ? `Holding: ${result.held.map(heldInWords).join(', ')}.` : null;
}
