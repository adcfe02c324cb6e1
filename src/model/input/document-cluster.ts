// The run's hardware and money sections of an interchange document: cluster (a GPU preset
// or a custom GPU object), cost and calibration, read as parseDocument reads them.

import { DEFAULT_PREEMPTIONS_PER_NODE_DAY, RESTART_SECONDS } from '../calibration.ts';
import { architectureOfGpuName, defaultExpTeraOpsPerSecond, defaultHostMemoryGBps, defaultHostMemoryGiB, findGpuPreset } from './gpus.ts';
import { FieldReader, describe, isObject, own, type JsonObject } from './fields.ts';
import { keysUnder } from './schema.ts';
import {
  CAPACITIES,
  MAX_CHECKPOINT_INTERVAL_MINUTES,
  MAX_RESTART_MINUTES,
  type CalibrationOverride,
  type ClusterConfig,
  type CostConfig,
  type GpuSpec,
  type ParallelConfig,
} from './types.ts';
import { SECONDS_PER_MINUTE } from './units.ts';

const CLUSTER_KEYS = keysUnder('cluster');
const GPU_KEYS = keysUnder('cluster.gpu');
const COST_KEYS = keysUnder('cost');
const CALIBRATION_KEYS = keysUnder('calibration');

export interface GpuRead {
  readonly gpu: GpuSpec;
  readonly gpuId: string | null;
  readonly gpusPerNode: number;
}

export function readGpu(r: FieldReader, c: JsonObject): GpuRead {
  const value = own(c, 'gpu');
  const fallback: GpuRead = { gpu: FALLBACK_GPU, gpuId: null, gpusPerNode: 8 };
  if (typeof value === 'string') {
    const preset = findGpuPreset(value);
    if (!preset) {
      r.error('cluster.gpu', `unknown GPU preset ${JSON.stringify(value.slice(0, 40))}`);
      return fallback;
    }
    return { gpu: preset, gpuId: preset.id, gpusPerNode: preset.nvlinkDomainGpus };
  }
  if (!isObject(value)) {
    r.error('cluster.gpu', 'must be a preset id or a GPU object');
    return fallback;
  }
  r.unknownKeys(value, GPU_KEYS, 'cluster.gpu');
  const at = 'cluster.gpu';
  const bf16Tflops = requiredPositive(r, value, 'bf16Tflops', 1e7);
  const name = r.text(value, 'name', at, 'Custom GPU');
  const gpu: GpuSpec = {
    name,
    architecture: architectureOfGpuName(name),
    memoryGiB: requiredPositive(r, value, 'memoryGiB', 1e6),
    bf16Tflops,
    fp8Tflops: r.number(value, 'fp8Tflops', at, 0, 0, 1e7),
    fp32Tflops: r.number(value, 'fp32Tflops', at, 0, 0, 1e7),
    fp4Tflops: r.number(value, 'fp4Tflops', at, 0, 0, 1e7),
    expTeraOpsPerSecond: r.number(value, 'expTeraOpsPerSecond', at, defaultExpTeraOpsPerSecond(bf16Tflops), 0, 1e7, true),
    hbmGBps: requiredPositive(r, value, 'hbmGBps', 1e7),
    intraNodeGBps: requiredPositive(r, value, 'intraNodeGBps', 1e7),
    interNodeGBps: requiredPositive(r, value, 'interNodeGBps', 1e7),
    tdpWatts: r.number(value, 'tdpWatts', at, 700, 0, 1e6),
    usdPerHour: r.number(value, 'usdPerHour', at, 2, 0, 1e6),
  };
  return { gpu, gpuId: null, gpusPerNode: 8 };
}

function requiredPositive(r: FieldReader, o: JsonObject, key: string, max: number): number {
  if (own(o, key) == null) {
    r.error(`cluster.gpu.${key}`, 'is required');
    return 1;
  }
  return r.number(o, key, 'cluster.gpu', 1, 0, max, true);
}

export function readCluster(r: FieldReader, c: JsonObject, g: GpuRead, p: ParallelConfig): ClusterConfig {
  r.unknownKeys(c, CLUSTER_KEYS, 'cluster');
  const product = p.tp * p.pp * p.dp * p.cp;
  const gpus = r.integer(c, 'gpus', 'cluster', product);
  if (gpus !== product) {
    r.error('cluster.gpus', `${gpus} does not equal parallel.tp × pp × dp × cp = ${p.tp}×${p.pp}×${p.dp}×${p.cp} = ${product}`);
  }
  return {
    gpuId: g.gpuId,
    gpu: g.gpu,
    gpusPerNode: r.integer(c, 'gpusPerNode', 'cluster', g.gpusPerNode, 1, 1e6),
    gpus,
    // A node's CPU memory: above 0, at most 1 PiB (a GB200 NVL72 rack holds 17 TiB).
    hostMemoryGiB: r.number(c, 'hostMemoryGiB', 'cluster', defaultHostMemoryGiB(g.gpuId), 0, 2 ** 20, true),
    // Project addition: the node's CPU memory bandwidth, above 0, at most 100 TB/s (a GB200 tray has about 1 TB/s).
    hostMemoryGBps: r.number(c, 'hostMemoryGBps', 'cluster', defaultHostMemoryGBps(g.gpuId), 0, 1e5, true),
  };
}

/**
 * The price a document without cost.usdPerGpuHour is priced at: readCost's default, the usdPerHour of the GPU as
 * readGpu reads `gpu` (a preset's, or a custom GPU's with its own default); null where readGpu refuses the value.
 */
export function defaultUsdPerGpuHour(gpu: unknown): number | null {
  const r = new FieldReader();
  const read = readGpu(r, { gpu } as JsonObject);
  return r.errors.length > 0 ? null : read.gpu.usdPerHour;
}

export function readCost(r: FieldReader, o: JsonObject, gpu: GpuSpec): CostConfig {
  r.unknownKeys(o, COST_KEYS, 'cost');
  const usdPerGpuHour = r.number(o, 'usdPerGpuHour', 'cost', gpu.usdPerHour, 0, 1e6);
  const capacity = r.choice(o, 'capacity', 'cost', CAPACITIES, 'on-demand');
  if (capacity === 'on-demand' && own(o, 'preemptionsPerNodeDay') != null) {
    r.warn('cost.preemptionsPerNodeDay', 'counts only with cost.capacity "spot": on-demand nodes are not taken back');
  }
  return {
    usdPerGpuHour,
    pue: r.number(o, 'pue', 'cost', 1.2, 1, 10),
    gridKgCo2PerKwh: r.number(o, 'gridKgCo2PerKwh', 'cost', 0.4, 0, 10),
    // Llama 3 (arXiv 2407.21783, 3.3.4): 419 interruptions in 54 days on 16,384 GPUs ≈ one per 50,700 GPU-hours.
    gpuMtbfHours: r.number(o, 'gpuMtbfHours', 'cost', 50_000, 0, 1e12, true),
    checkpointWriteGBps: r.number(o, 'checkpointWriteGBps', 'cost', 50, 0, 1e9, true),
    // Project addition: the interval the run checkpoints at; absent or null = the Young/Daly optimum.
    checkpointIntervalMinutes:
      own(o, 'checkpointIntervalMinutes') == null
        ? null
        : r.number(o, 'checkpointIntervalMinutes', 'cost', 60, 0, MAX_CHECKPOINT_INTERVAL_MINUTES, true),
    capacity,
    // Interchange: "spot price (absent: usdPerGpuHour)".
    spotUsdPerGpuHour: r.number(o, 'spotUsdPerGpuHour', 'cost', usdPerGpuHour, 0, 1e6),
    // calibration.ts: the floor of AWS Spot Instance Advisor's top interruption band.
    preemptionsPerNodeDay: r.number(o, 'preemptionsPerNodeDay', 'cost', DEFAULT_PREEMPTIONS_PER_NODE_DAY, 0, 1000),
    // calibration.ts: the restart share of Llama 3's ≈ 18.6 min lost per interruption.
    restartMinutes: r.number(o, 'restartMinutes', 'cost', RESTART_SECONDS / SECONDS_PER_MINUTE, 0, MAX_RESTART_MINUTES),
    elastic: r.boolean(o, 'elastic', 'cost', false),
    startDate: readIsoDate(r, o, 'startDate', 'cost'),
  };
}

/** A calendar date written YYYY-MM-DD (ISO 8601), or null when absent; a date that does not exist (2027-02-30) is an error. */
function readIsoDate(r: FieldReader, o: JsonObject, key: string, path: string): string | null {
  const value = own(o, key);
  if (value == null) return null;
  const match = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (!match) {
    r.error(`${path}.${key}`, `must be an ISO date such as "2027-01-04", got ${describe(value)}`);
    return null;
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    r.error(`${path}.${key}`, `${JSON.stringify(value)} is not a day of the calendar`);
    return null;
  }
  return value as string;
}

export function readCalibration(r: FieldReader, o: JsonObject): CalibrationOverride {
  r.unknownKeys(o, CALIBRATION_KEYS, 'calibration');
  return {
    computeEfficiencyScale: r.number(o, 'computeEfficiencyScale', 'calibration', 1, 0.05, 20, true),
    memoryOverheadScale: r.number(o, 'memoryOverheadScale', 'calibration', 1, 0, 20),
  };
}

const FALLBACK_GPU: GpuSpec = {
  name: 'none',
  architecture: 'other',
  memoryGiB: 1,
  bf16Tflops: 1,
  fp8Tflops: 0,
  fp32Tflops: 1,
  fp4Tflops: 0,
  expTeraOpsPerSecond: 1,
  hbmGBps: 1,
  intraNodeGBps: 1,
  interNodeGBps: 1,
  tdpWatts: 1,
  usdPerHour: 0,
};
