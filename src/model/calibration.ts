// Every calibration constant of the engine, in one module. Each says what it was
// fitted on (only ../shared/validation/published-runs.json, copied to validation/)
// or, where not fitted, where its value comes from. `npm run calibrate` refits the
// fitted ones and prints the fit error.

/** A constant that nothing may change: `npm run calibrate` builds new objects instead (withCalibration). */
function frozen<T extends object>(value: T): T {
  for (const inner of Object.values(value)) if (typeof inner === 'object' && inner !== null) frozen(inner);
  return Object.freeze(value);
}

// ---- Memory: the "other" terms (bytes per GPU) --------------------------------
// Used by memory.ts (otherMemoryTerms) and activations.ts (the loss). FITTED values
// come from the 26 memory rows of validation/published-runs.json; the fit and its
// residuals are printed by `npx tsx scripts/memory-table.ts`.

// Memory outside PyTorch's caching allocator (the CUDA context, NCCL's communicator
// buffers, cuBLAS workspaces) is no calibration constant: each term is cited in
// memory/device.ts and counts in memory.deviceUsed only.

/**
 * ZeRO-3 / FSDP: layers whose full weights are gathered at once, the one computing
 * and the one prefetched (FSDP2 prefetches one module forward and backward: Zhao et al.
 * 2023, arXiv 2304.11277, section 3.3; DeepSpeed's prefetch bucket is similar).
 */
export const ZERO3_GATHERED_LAYERS = 2;

/**
 * ZeRO-2/3: layers whose full gradients exist before their reduce-scatter (FSDP
 * reduces one module's unsharded gradient at a time; Megatron's buffers are views and
 * need none, but it keeps ZeRO-1 here).
 */
export const ZERO_UNSHARDED_GRADIENT_LAYERS = 1;

/**
 * FITTED: the caching allocator's reserve over what is allocated (fragmentation,
 * cached blocks), as a fraction of allocated bytes; in "peak reserved" / "max across
 * ranks" figures, not in "peak allocated". Fitted on the torchtitan Table 2 rows
 * (torchtitan-202412-t2-*: full recompute, so no doubt about what was saved):
 * 0.10 leaves them at −3 to −4 %. Cross-check: the Moonlight study in the same
 * file reports ~40 GB reserved against 36.6 GB allocated (+9 %).
 */
export const ALLOCATOR_RESERVE_FRACTION = 0.1;

/**
 * FITTED: fp32 logits-sized tensors that exist, on top of the saved fp32 softmax,
 * while the loss runs backward. PyTorch's eager cross_entropy (log_softmax + nll_loss)
 * makes two: the gradient of the log-probabilities and the gradient of the logits;
 * Megatron's fused vocab-parallel kernel writes the gradient in place (0). 2 is what
 * the torchtitan-202412-t2-* rows need (their peak is the loss of 32k tokens × 128k
 * vocabulary: 1 copy leaves them at −24 %, 2 at −4 %); it is conservative for fused
 * losses (Megatron, llm-foundry), which over-predicts their long-sequence runs. With the
 * freed 16-bit logits counted as reserve (memory/loss.ts eagerLossLogitsHoleBytes, issue
 * 34) the four t2 rows are within ±0.5 %: the 2 is the op sequence's, no longer a fit.
 */
export const LOSS_BACKWARD_FP32_LOGIT_COPIES = 2;

/**
 * FITTED: more fp32 logits-sized tensors at the loss's peak when the vocabulary is
 * split over TP ranks. A vocabulary-parallel cross-entropy reduces the maximum and the
 * sum of exponentials across the ranks, so it cannot run the fused log-softmax kernel:
 * PyTorch's loss_parallel (torch.distributed.tensor.parallel.loss, _log_softmax)
 * materialises the shifted logits and their exponentials as separate tensors. 2 is what
 * the torchtitan-202412-t4-* rows need (Llama 3.1 70B, TP 8, 131,072 tokens per
 * micro-batch, the set's only TP rows with memory): 0 leaves them at −24.5 %, 1 at
 * −12.5 %, 2 at −0.6 % and +5.8 %. Megatron's vocab-parallel kernel works in place and
 * needs fewer, so for Megatron TP runs this errs on the safe side by up to two logits
 * copies (0.5 GB per GPU for Llama 3 70B at TP 8, s = 8,192, b = 1).
 */
export const VOCAB_PARALLEL_LOSS_EXTRA_FP32_LOGIT_COPIES = 2;

// ---- Time: achievable efficiency and overlap -----------------------------------
// Used by compute.ts and time.ts. Values marked FITTED come from `npm run calibrate`
// (scripts/calibrate.ts) on the 397 throughput rows of validation/published-runs.json:
// a maximum-a-posteriori fit, each knob pulled towards a physical prior stated in the
// script's knob table. Fit error on the set: median |error| 7.5 %, p90 28.5 %; with
// each publisher held out in turn and predicted by a fit on the others: 13.3 % and
// 33.2 % (`npm run calibrate -- 4 3 --cv`). The set mixes software stacks the
// interchange document cannot describe (Megatron with Transformer Engine runs the same
// dense fp8 run 1.3–1.5× faster than eager PyTorch), which bounds what any constant
// can do; see docs/methodology.md, section 7.
export interface TimeCalibration {
  /** FITTED: best fraction of the dense peak a large GEMM reaches, per precision. */
  readonly matmulEfficiencyCeiling: Readonly<Record<'fp32' | 'fp16' | 'bf16' | 'fp8' | 'fp4', number>>;
  /** FITTED: TFLOP/s per watt of TDP at which power capping halves the sustained tensor rate (compute.ts sustainedPeakFlopsPerSecond). */
  readonly powerKneeTflopsPerWatt: number;
  /**
   * FITTED, with a physical prior: energy of one tensor-core FLOP relative to a 16-bit one.
   * A multiplier's energy grows with the square of its mantissa width (Horowitz 2014,
   * "Computing's energy problem", ISSCC, figure 1.1.9), so e4m3 fp8 (4-bit significand vs
   * bf16's 8) costs about a quarter to a half and e2m1 fp4 less again; the prior is the
   * value that lets a GPU run every precision at the same fraction of its datasheet peak
   * (fp8 0.5, fp4 0.25), as cuBLAS GEMM benchmarks show on H100.
   */
  readonly tensorEnergyPerFlopRelative: Readonly<Record<'fp32' | 'fp16' | 'bf16' | 'fp8' | 'fp4', number>>;
  /** FITTED: GEMM dimension at which efficiency is half the ceiling (per dimension). */
  readonly gemmHalfSaturationDim: number;
  /** FITTED: multiplier on a GEMM's operand and output bytes in the additive roofline (tiles re-read across thread blocks push it above 1). */
  readonly gemmTrafficFactor: number;
  /** FITTED: 16-bit passes over each GEMM input to cast and scale it for fp8/fp4 (Transformer Engine: amax, quantize, transpose for backward). */
  readonly lowPrecisionCastPasses: number;
  /**
   * FITTED: fraction of the dense 16-bit peak that the attention matmuls (QKᵀ, P·V) of a
   * fused kernel reach, before the softmax's exponentials (FlashAttention-2, Dao 2023,
   * arXiv 2307.08691: 50–73 % of A100 peak forward; FlashAttention-3, arXiv 2407.08608:
   * up to 75 % of H100's). Against the datasheet peak, not the power-capped rate: the
   * tensor cores idle part of an attention kernel, so it draws less than a GEMM.
   */
  readonly attentionTensorEfficiency: number;
  /**
   * FITTED: achievable share of the special-function units' exponential rate
   * (GpuSpec.expTeraOpsPerSecond) in the softmax: the row max, the scaling and the row sums
   * run on the FP32 pipes beside each exp (FlashAttention-3, section 3.1).
   */
  readonly softmaxExpEfficiency: number;
  /**
   * FITTED: share of the shorter of the two (tensor-core matmuls, exponentials) that is not
   * hidden under the longer. FlashAttention-2 runs them one after the other (1);
   * FlashAttention-3's ping-pong and intra-warpgroup pipelining overlap them (→ 0).
   */
  readonly softmaxExposedFraction: number;
  /** Exponentials per score in the backward pass: FlashAttention recomputes P = exp(S − L) once (Dao 2023, algorithm 2). */
  readonly backwardExpsPerScore: number;
  /** Without fused attention the s² scores round-trip through HBM; a plain slowdown factor (Dao et al. 2022 report 2–4× end-to-end attention speed-ups). */
  readonly unfusedAttentionSlowdown: number;
  /** Causal masking: a query attends on average to half the keys; fused kernels skip masked blocks. */
  readonly causalAttentionFraction: number;
  /** FITTED: h-sized 16-bit tensor reads+writes per token per layer in forward (norms, residuals, rotary, dropout). */
  readonly elementwiseHiddenPasses: number;
  /** FITTED: FFN-sized 16-bit tensor reads+writes per token per layer in forward (activation function, gating). */
  readonly elementwiseFfnPasses: number;
  /** FITTED: fixed forward time per layer per micro-batch that does not scale with size (kernel launches, host synchronisation, router bookkeeping). */
  readonly layerOverheadSeconds: number;
  /**
   * FlashAttention-2 backward runs five GEMM-like products to forward's two, recomputing the scores (Dao 2023, arXiv 2307.08691,
   * section 3.1.2): 2.5× forward.
   */
  readonly attentionBackwardOverForward: number;
  /** Backward FLOPs over forward FLOPs for matrix multiplies: two GEMMs (input and weight gradients) per forward GEMM (Narayanan et al. 2021, section 5.1). */
  readonly backwardOverForward: number;
}

export const TIME_CALIBRATION: TimeCalibration = frozen({
  matmulEfficiencyCeiling: { fp32: 0.7, fp16: 1, bf16: 1, fp8: 1, fp4: 1 },
  powerKneeTflopsPerWatt: 2.61,
  tensorEnergyPerFlopRelative: { fp32: 1, fp16: 1, bf16: 1, fp8: 0.386, fp4: 0.258 },
  gemmHalfSaturationDim: 77.5,
  gemmTrafficFactor: 1.69,
  lowPrecisionCastPasses: 0.347,
  attentionTensorEfficiency: 0.371,
  softmaxExpEfficiency: 0.53,
  softmaxExposedFraction: 0.466,
  backwardExpsPerScore: 1,
  unfusedAttentionSlowdown: 0.4,
  causalAttentionFraction: 0.5,
  elementwiseHiddenPasses: 10.3,
  elementwiseFfnPasses: 2.57,
  layerOverheadSeconds: 7.47e-6,
  backwardOverForward: 2,
  attentionBackwardOverForward: 2.5,
});

/**
 * Mixture-of-experts time terms (time/moe-time.ts, time/moe-host.ts, time/moe-traffic.ts;
 * sources in ../shared/docs/moe.md). FITTED values come from `FROM_CURRENT=1
 * PRIOR_WEIGHT=0.5 npm run calibrate -- 6 10 --moe` on the 115 MoE throughput rows of
 * validation/published-runs.json, every other constant held (so no dense figure moves),
 * refitted (issue 32) after DeepEP/HybridEP's intra-node dispatch was counted as their own
 * benchmarks count it — one row per (token, rank touched), not per expert copy (moe-time.ts
 * ranksPerToken) — at the architecture's measured NVLink share (input/architectures.ts
 * epDispatchNvlinkEfficiency: Hopper 153/200, Blackwell 550.1/900); started from the previous
 * fit (17.5 µs, 0.861 ms, 1.09, 1.02, 0.759, 0.112). Fit (`npm run validate -- --summary`):
 * MoE median |error| 6.7 %, p90 25.6 % (previous fit 6.7 %, 26.7 %; the two mechanisms
 * unrefitted 7.7 %, 25.9 %); dense unchanged (5.8 %, 15.9 %); each model family held out of
 * the fit of eagerOpHostSeconds in turn (same command, last block): 6.5 %, 25.3 % pooled
 * (previous 8.5 %, 31.0 %); see docs/methodology.md.
 */
export interface MoeTimeCalibration {
  /**
   * FITTED (prior EAGER_OP_HOST_SECONDS, 10 µs: time/adapter-time.ts, eager PyTorch's
   * per-operator dispatch fitted on the fine-tuning set): host seconds per eager operator
   * of an MoE layer (time/moe-host.ts MOE_EAGER_OPS), the host-bound floor of a layer not
   * captured by CUDA graphs. One constant for every dispatcher: the dispatchers differ in
   * how many operators they issue, counted from their code.
   */
  readonly eagerOpHostSeconds: number;
  /**
   * FITTED (prior 0.5 ms): seconds the GPU idles at each dropless dispatcher's host
   * synchronisation beyond issuing the operators that follow it — the queue drained, the
   * host woken from its wait and the first kernels' launch latency (time/moe-host.ts).
   * Once per MoE layer per micro-batch forward; the same for every dispatcher.
   */
  readonly syncStallSeconds: number;
  /**
   * FITTED (prior 1): host cost of one call a framework issues from C++ inside an operator,
   * relative to an eager operator (time/moe-host.ts): an NCCL peer send or receive of the
   * all-to-all (alltoallPeerCalls) and a Transformer Engine quantize kernel of an expert's
   * tensor (expertQuantizeOps). One constant for both: each is a launch plus its bookkeeping
   * without Python dispatch.
   */
  readonly nativeCallOpShare: number;
  /**
   * FITTED (prior 1, nativeCallOpShare's): host cost of one ncclSend or ncclRecv of the
   * all-to-all dispatcher's group call (time/moe-host.ts alltoallPeerCalls), relative to an
   * eager operator. Apart from the Transformer Engine quantize kernels: an NCCL peer call
   * enqueues a task that ncclGroupEnd schedules and launches as one kernel (NVIDIA/nccl
   * src/enqueue.cpp, src/group.cc), a quantize call launches its own kernel.
   */
  readonly ncclPeerCallOpShare: number;
  /** FITTED (prior 1: "without overlap the dispatch and combine sit on the critical path"): exposed share of the EP all-to-all without overlap. */
  readonly exposedFraction: number;
  /** FITTED (prior 0.2): exposed share with --overlap-moe-expert-parallel-comm. */
  readonly overlappedExposedFraction: number;
  /** DualPipe hides nearly all of the all-to-all at a 1:1 compute/communication ratio (DeepSeek-V3 report, arXiv 2412.19437, section 3.2.1): 0.05. */
  readonly dualPipeExposedFraction: number;
  /**
   * Tokens per expert at which a grouped GEMM reaches half its M-efficiency. From the
   * anchor of tgale96/grouped_gemm PR #37: Qwen3-30B-A3B up_proj (128 experts, K 2048,
   * N 1536, 512 tokens per expert) on H100 runs at 129.5 (cuBLAS) to 160.5 (CUTLASS)
   * TFLOP/s; 1,080 puts the engine's grouped GEMM at their mean, 145 TFLOP/s (worked in
   * time/moe-time.test.ts). NOT FITTED.
   */
  readonly groupedGemmHalfSaturationTokens: number;
}

export const MOE_TIME: MoeTimeCalibration = frozen({
  eagerOpHostSeconds: 25.2e-6,
  syncStallSeconds: 0.403e-3,
  nativeCallOpShare: 1.48,
  ncclPeerCallOpShare: 0.547,
  exposedFraction: 0.61,
  overlappedExposedFraction: 0.117,
  dualPipeExposedFraction: 0.05,
  groupedGemmHalfSaturationTokens: 1080,
});

/** How the data-parallel synchronisation of a step hides behind compute (time.ts). */
export interface DataParallelOverlap {
  readonly overlapEfficiency: number;
  readonly minimumExposedFraction: number;
}

/** How the data-parallel synchronisation of a step hides behind compute (time.ts). */
export const DP_OVERLAP: DataParallelOverlap = frozen({
  /**
   * Share of the last micro-batch's forward+backward that the gradient reduce-scatter and
   * parameter all-gather can run under (Megatron --overlap-grad-reduce/--overlap-param-gather,
   * PyTorch DDP bucketing, Li et al. 2020, arXiv 2006.15704, section 3.2.3).
   */
  overlapEfficiency: 0.8,
  /** FITTED (prior 0.1): the last gradient bucket is reduced after the last backward finishes, so some of the sync is always exposed. */
  minimumExposedFraction: 0.101,
});

/**
 * Optimizer step (time/optimizer.ts): memory-bound, bytes of state read and written per
 * parameter (memory.ts optimizerUpdateBytesPerParameter) over HBM bandwidth, or over the
 * host's with optimizer offload. Adam with fp32 master weights reads master, m, v and the
 * gradient (4 bytes each) and writes master, m, v and the 16-bit weight: 30 bytes.
 */
export const OPTIMIZER_STEP = frozen({
  /** Achievable fraction of HBM bandwidth for the fused multi-tensor Adam (Apex/TE FusedAdam). */
  hbmEfficiency: 0.7,
  /**
   * Achievable fraction of the host's peak memory bandwidth (cluster.hostMemoryGBps) for the
   * CPU optimizer's pass with optimizer offload (time/optimizer.ts): a prior, not fitted.
   * STREAM triad, the sustained-bandwidth benchmark whose a[i] = b[i] + q·c[i] streams as the
   * Adam loop does, measures about three quarters of the DIMMs' peak (Texas Instruments
   * SPRAD45A, section 3.1.2, table 3-3: triad 78 % of the DDR4 wire rate; SPRACV1B: 74 %);
   * the fused CPU AdamW (PyTorch FusedAdamKernel.cpp, DeepSpeed cpu_adam_impl.cpp) is such a
   * loop. The one validation row that times a host step (finetune-runs.json
   * torchtune-l31-70b-full-8xa100) is reported with it, not fitted to it.
   */
  hostBandwidthEfficiency: 0.75,
  /** PCIe Gen4/5 x16 one direction, achievable: gradients down and weights up for offloaded states. */
  offloadPcieBytesPerSecond: 25e9,
} as const);

// ---- Communication, cost and reliability ---------------------------------------
// Used by comm.ts, cost.ts and reliability.ts. The exposed fractions are fitted by
// `npm run calibrate` (marked FITTED, with their priors); the others are knobs with
// the source of their value.

/**
 * Latency α of one ring step over NVLink/NVSwitch: NCCL's own cost model
 * (NVIDIA/nccl src/graph/tuning.cc, hwLat[NVLINK][Ring][Simple] = 3.4 µs), the
 * protocol NCCL picks for the large messages of training.
 */
export const INTRA_NODE_LATENCY_SECONDS = 3.4e-6;

/** Latency α of one ring step across the network: same table, hwLat[NET][Ring][Simple] = 9.6 µs. */
export const INTER_NODE_LATENCY_SECONDS = 9.6e-6;

/**
 * CALIBRATION KNOB: achievable bus bandwidth over NVLink as a fraction of the link's
 * one-direction rate. NCCL's tuning model caps A100 bus bandwidth at 235 GB/s of the
 * 300 GB/s link (tuning.cc, compCap80 cap: 0.78); nccl-tests ring all-reduce on
 * 8×H100 NVLink reports about 360 of 450 GB/s.
 */
export const INTRA_NODE_BANDWIDTH_EFFICIENCY = 0.8;

/**
 * CALIBRATION KNOB: the same for InfiniBand/RoCE between nodes. NCCL's model
 * discounts its LL128 protocol by 0.92 ("120/128", tuning.cc) and packet headers
 * take a few per cent more; 0.9 is the starting value.
 */
export const INTER_NODE_BANDWIDTH_EFFICIENCY = 0.9;

export type CommExposedFractions = Readonly<Record<'tp' | 'cp' | 'zero3Gather', number>>;

/**
 * Share of each per-micro-batch communication term left on the critical path after
 * overlap with compute (keys as CommTerm in comm.ts; expert parallelism's is MOE_TIME's, by dispatcher and overlap). Pipeline sends have none: the
 * schedule simulator puts each on the critical path (Narayanan et al. 2021, section
 * 2.2). The once-per-step data-parallel sync overlaps as DP_OVERLAP says.
 */
export const COMM_EXPOSED_FRACTION: CommExposedFractions = frozen({
  /**
   * FITTED (prior 0.8): tensor-parallel collectives sit between dependent matmuls; Transformer Engine's --tp-comm-overlap (in the
   * NeMo and Megatron-Bridge recipes) hides part of them.
   */
  tp: 0.582,
  /**
   * FITTED (prior 0.2): ring attention sends the next K/V block while computing on the current one (Liu et al. 2023, arXiv
   * 2310.01889, section 3); exposed when blocks are short.
   */
  cp: 0.203,
  /** FITTED (prior 0.3): FSDP prefetches the next unit's all-gather during the current unit's compute (Zhao et al. 2023, arXiv 2304.11277, figure 5). */
  zero3Gather: 0.401,
});

/**
 * Average GPU power over TDP. 1.0 makes energy an upper bound, the convention of
 * Meta's published footprints (Llama 2, arXiv 2307.09288, section 2.2.1 and
 * table 2: peak power per GPU × GPU-hours × PUE).
 */
export const GPU_AVERAGE_POWER_FRACTION = 1;

/**
 * Time to detect a failure, reschedule and reload the last checkpoint. Llama 3
 * (arXiv 2407.21783, section 3.3.4) kept effective training time above 90 % with 419
 * interruptions in 54 days: at most 0.1 × 54 × 24 × 60 / 419 ≈ 18.6 min lost per
 * interruption, restart and re-done work together. 10 min is the restart share.
 */
export const RESTART_SECONDS = 600;

/**
 * How often one spot node is taken back, per node-day, when the document does not say
 * (cost.preemptionsPerNodeDay). AWS publishes spot interruption frequency only as bands
 * (EC2 Spot Instance Advisor: "the rate at which Spot has reclaimed capacity during the
 * trailing month", in ranges < 5 %, 5–10 %, 10–15 %, 15–20 % and > 20 %); GPU instance
 * types are commonly listed in the top band, which has no upper bound. We take its floor,
 * 20 % of nodes taken back in a month, as a memoryless rate: −ln(1 − 0.2) / 30.44 days
 * = 0.00733 per node-day. A floor, not a typical figure: set your provider's own rate.
 */
export const SPOT_MONTHLY_INTERRUPTION_FRACTION = 0.2;
export const DAYS_PER_MONTH = 30.44;
export const DEFAULT_PREEMPTIONS_PER_NODE_DAY = -Math.log(1 - SPOT_MONTHLY_INTERRUPTION_FRACTION) / DAYS_PER_MONTH;

// ---- The calibration in force ---------------------------------------------------

/** The fitted time constants as one value: what `npm run calibrate` and the validation's refits vary. */
export interface Calibration {
  readonly time: TimeCalibration;
  readonly moe: MoeTimeCalibration;
  readonly dpOverlap: DataParallelOverlap;
  readonly exposed: CommExposedFractions;
}

/** The published-runs fit above, frozen. */
export const FITTED_CALIBRATION: Calibration = frozen({
  time: TIME_CALIBRATION,
  moe: MOE_TIME,
  dpOverlap: DP_OVERLAP,
  exposed: COMM_EXPOSED_FRACTION,
});

let inForce: Calibration = FITTED_CALIBRATION;

/** The calibration the engine reads: FITTED_CALIBRATION, or the one a fit passes to withCalibration for the length of a call. */
export function calibration(): Calibration {
  return inForce;
}

/** Runs `run` with the engine reading `c` (a fit's candidate, a new object: the constants above stay as they are). */
export function withCalibration<T>(c: Calibration, run: () => T): T {
  const previous = inForce;
  inForce = c;
  try {
    return run();
  } finally {
    inForce = previous;
  }
}
