// What the three launch-argument exports (launch-args.ts) share: the plan's title,
// how its GPUs split into nodes, and the batch arithmetic every framework asks for.

import { microBatchesPerStep, osNodeGpus } from '../input/index.ts';
import { pipelineChunks } from '../structure/index.ts';
import type { LaunchTarget, RunConfig } from '../input/index.ts';

export type { LaunchTarget };

/** A command-line flag and its value (none for a switch). */
export type Flag = readonly [name: string, value?: string | number];

/** The text to run: what `npm run launch` prints and the page's launch panel shows. */
export interface LaunchFile {
  readonly fileName: string;
  readonly text: string;
}

export interface LaunchExport {
  readonly target: LaunchTarget;
  /** The framework, as people name it. */
  readonly label: string;
  /** A file name to save the text as. */
  readonly fileName: string;
  readonly text: string;
  /** What the plan sets that the export cannot say (also written into the text as comments). */
  readonly notes: readonly string[];
  /** The whole launch: for Megatron-LM and torchtitan the file above; for DeepSpeed a script that writes it and starts Megatron-DeepSpeed. */
  readonly launch: LaunchFile;
}

/** "Llama 3 70B on 64 × NVIDIA H100 SXM5 80GB". */
export function planTitle(c: RunConfig): string {
  return `${c.model.name} on ${c.cluster.gpus} × ${c.cluster.gpu.name}`;
}

/**
 * Nodes × GPUs per node for torchrun, or null when the GPUs do not fill whole nodes. A
 * node is the OS node (input/gpus.ts osNodeGpus): a server, or a GB200/GB300 NVL72
 * compute tray of 4 GPUs, not the 72-GPU NVLink domain (cluster.gpusPerNode).
 */
export function nodeLayout(c: RunConfig): { readonly nodes: number; readonly gpusPerNode: number } | null {
  const { gpus } = c.cluster;
  const gpusPerNode = osNodeGpus(c.cluster);
  if (gpus <= gpusPerNode) return { nodes: 1, gpusPerNode: gpus };
  return gpus % gpusPerNode === 0 ? { nodes: gpus / gpusPerNode, gpusPerNode } : null;
}

/** "torchrun --nnodes 8 --nproc-per-node 8", or why there is none. */
export function torchrunPrefix(c: RunConfig): string {
  const layout = nodeLayout(c);
  if (!layout) return `torchrun (${c.cluster.gpus} GPUs do not fill whole nodes of ${osNodeGpus(c.cluster)})`;
  return `torchrun --nnodes ${layout.nodes} --nproc-per-node ${layout.gpusPerNode}`;
}

/**
 * The launcher's own arguments (torchrun --help): nodes and processes per node and, across
 * nodes, where they meet. The node rank and the first node's address differ per node, so
 * they are shell variables with single-node defaults, as Megatron-LM's
 * examples/llama/train_llama3_8b_h100_fp8.sh writes them.
 */
export function torchrunFlags(c: RunConfig, notes: string[]): Flag[] {
  const layout = nodeLayout(c);
  if (!layout) {
    notes.push(
      `${c.cluster.gpus} GPUs do not fill whole nodes of ${osNodeGpus(c.cluster)}: torchrun starts the same number of processes on every node`,
    );
    return [['--nproc-per-node', c.cluster.gpus]];
  }
  const flags: Flag[] = [
    ['--nnodes', layout.nodes],
    ['--nproc-per-node', layout.gpusPerNode],
  ];
  if (layout.nodes > 1)
    flags.push(
      ['--node-rank', '"${NODE_RANK:-0}"'],
      ['--master-addr', '"${MASTER_ADDR:-localhost}"'],
      ['--master-port', '"${MASTER_PORT:-6000}"'],
    );
  return flags;
}

/** One shell command, a flag per line: `command a b \` then `  --flag value \` …, the last line without the backslash. */
export function commandLines(command: string, flags: readonly Flag[]): string[] {
  const words = (flags: readonly Flag[]) => flags.map(([name, value]) => (value === undefined ? name : `${name} ${value}`));
  const lines = [command, ...words(flags).map((w) => `  ${w}`)];
  return lines.map((line, i) => (i < lines.length - 1 ? `${line} \\` : line));
}

/** Sequences for the token budget, rounded up: Megatron-LM's --train-samples. */
export function trainSamples(c: RunConfig): number {
  return Math.ceil(c.training.tokens / c.training.seqLen);
}

/** Optimizer steps for the token budget, rounded up: torchtitan's training.steps. */
export function trainSteps(c: RunConfig): number {
  return Math.ceil(c.training.tokens / (c.training.seqLen * c.training.globalBatch));
}

/** Micro-batches each data-parallel rank runs per optimizer step (consistency.ts guarantees a whole number). */
export function gradientAccumulationSteps(c: RunConfig): number {
  return microBatchesPerStep(c.training, c.parallel);
}

/** Layers in each pipeline chunk, in pipeline order (params.ts decides uneven splits, or the document's stated layout). */
export function chunkLayers(c: RunConfig): number[] {
  return pipelineChunks(c.model, c.parallel).counts;
}

/** Layers per chunk when every chunk holds the same number, else null. */
export function evenChunkLayers(c: RunConfig): number | null {
  const counts = chunkLayers(c);
  const first = counts[0] ?? 0;
  return counts.every((n) => n === first) ? first : null;
}

export const SCHEDULE_NAMES: Readonly<Record<RunConfig['parallel']['schedule'], string>> = {
  gpipe: 'GPipe',
  '1f1b': '1F1B',
  'interleaved-1f1b': 'interleaved 1F1B',
  'zero-bubble': 'zero-bubble (ZB-H1)',
  dualpipe: 'DualPipe',
};

/** Comment lines: a title, free lines, then the notes as a list (or a line saying there are none). */
export function commentBlock(prefix: string, lines: readonly string[], notes: readonly string[]): string[] {
  const out = lines.map((line) => `${prefix} ${line}`);
  if (notes.length === 0) out.push(`${prefix} Every setting of the plan is expressed below.`);
  else out.push(`${prefix} Not expressible here (set elsewhere, or accept the difference):`, ...notes.map((n) => `${prefix}   - ${n}`));
  return out;
}
