import { describe, expect, it } from 'vitest';
import { OPTIMIZER_STEP } from '../calibration.ts';
import { parseDocument, type RunConfig } from '../input/index.ts';
import { optimizerStepSeconds } from './optimizer.ts';
import { LLAMA3_8B_MODEL } from '../../testing/documents.ts';

// The optimizer step with optimizer offload: the node's GPUs each stream their shard's
// states through the host's memory at once, so one GPU's update takes
//   GPUs on the node × parameters × bytes read and written ÷ (host bandwidth × 0.75),
// plus the gradient down and the 16-bit weight up over PCIe (25 GB/s). Each expected
// figure is derived by hand below; the parameters are passed in, so the model's size
// does not matter.

function run(training: Record<string, unknown>, parallel: Record<string, unknown>, cluster: Record<string, unknown>): RunConfig {
  const parsed = parseDocument({
    version: 1,
    model: LLAMA3_8B_MODEL,
    training: { seqLen: 2048, microBatch: 1, precision: 'bf16', ...training },
    parallel: { tp: 1, pp: 1, ...parallel },
    cluster,
  });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.config;
}

const PCIE = 25e9;

describe('the host-side optimizer step is host memory traffic shared by the node', () => {
  it('uses the priors these figures are derived with', () => {
    expect(OPTIMIZER_STEP.hostBandwidthEfficiency).toBe(0.75);
    expect(OPTIMIZER_STEP.offloadPcieBytesPerSecond).toBe(PCIE);
  });

  it('(i) one RTX 4090 in a desktop gets the whole host: DeepSpeed CPU Adam, fp32 master, 1e9 parameters', () => {
    const c = run(
      { globalBatch: 1, framework: 'deepspeed', offload: { optimizer: true, parameters: false } },
      { dp: 1, zero: 1 },
      { gpu: 'rtx-4090', gpusPerNode: 1, gpus: 1 },
    );
    // Read master, m, v (fp32) and the fp32 gradient copy, write master, m, v and the bf16 weight:
    // 2 × 12 + 4 + 2 = 30 bytes. Desktop DDR5-5600, 2 channels: 89.6 GB/s × 0.75 = 67.2 GB/s.
    const host = (1 * 1e9 * 30) / 67.2e9; // 0.4464 s
    // PCIe: the gradient down (fp32 by default: 4) and the bf16 weight up (2): 6 GB at 25 GB/s = 0.24 s.
    const pcie = (1e9 * 6) / PCIE;
    expect(optimizerStepSeconds(c, { dense: 1e9, expert: 0 })).toBeCloseTo(host + pcie, 9);
    expect(host + pcie).toBeCloseTo(0.686, 3);
  });

  it('(ii) 8 A100s share one DGX A100 host: torchtune Llama 3.1 70B full, FSDP CPU offload, bf16 states, no master', () => {
    // finetune-runs.json torchtune-l31-70b-full-8xa100: ZeRO-3 over 8 GPUs, 70e9 parameters → 8.75e9 a GPU.
    const c = run(
      {
        globalBatch: 16,
        microBatch: 2,
        framework: 'fsdp',
        masterWeights: false,
        gradDtype: 'bf16',
        optimizerStateDtype: 'bf16',
        offload: { optimizer: true, parameters: true },
      },
      { dp: 8, zero: 3 },
      { gpu: 'a100-80gb', gpusPerNode: 8, gpus: 8 },
    );
    // torch.optim.AdamW(fused=True) on the bf16 shard: read param, grad, exp_avg, exp_avg_sq, write
    // exp_avg, exp_avg_sq, param: 7 × 2 = 14 bytes. 8 GPUs at once over 2 × 204.8 GB/s × 0.75 = 307.2 GB/s.
    const host = (8 * 8.75e9 * 14) / 307.2e9; // 3.190 s
    // PCIe: bf16 gradient down, bf16 weight up: 8.75e9 × 4 bytes at 25 GB/s = 1.4 s.
    const pcie = (8.75e9 * 4) / PCIE;
    expect(optimizerStepSeconds(c, { dense: 70e9, expert: 0 })).toBeCloseTo(host + pcie, 9);
    expect(host + pcie).toBeCloseTo(4.59, 2);
    // The same run's node with 1 GPU offloading: the host is its alone, an eighth of the memory time.
    const alone = run(
      {
        globalBatch: 2,
        microBatch: 2,
        framework: 'fsdp',
        masterWeights: false,
        gradDtype: 'bf16',
        optimizerStateDtype: 'bf16',
        offload: { optimizer: true, parameters: true },
      },
      { dp: 1, zero: 3 },
      { gpu: 'a100-80gb', gpusPerNode: 8, gpus: 1 },
    );
    expect(optimizerStepSeconds(alone, { dense: 8.75e9, expert: 0 })).toBeCloseTo(host / 8 + pcie, 9);
  });

  it('(iii) bf16 moments with an fp32 master move 22 bytes where fp32 moments move 30', () => {
    const on = (optimizerStateDtype: string) =>
      run(
        { globalBatch: 8, framework: 'deepspeed', optimizerStateDtype, offload: { optimizer: true, parameters: false } },
        { dp: 8, zero: 2 },
        { gpu: 'h100-sxm', gpusPerNode: 8, gpus: 8 },
      );
    // 8e9 parameters over dp 8: 1e9 a GPU; DGX H100: 2 × 8 × 38.4 = 614.4 GB/s × 0.75 = 460.8 GB/s.
    const pcie = (1e9 * (4 + 2)) / PCIE;
    // fp32: 2 × (4 master + 8 moments) + 4 gradient + 2 weight = 30; bf16 moments: 2 × (4 + 4) + 4 + 2 = 22.
    expect(optimizerStepSeconds(on('fp32'), { dense: 8e9, expert: 0 })).toBeCloseTo((8 * 1e9 * 30) / 460.8e9 + pcie, 9);
    expect(optimizerStepSeconds(on('bf16'), { dense: 8e9, expert: 0 })).toBeCloseTo((8 * 1e9 * 22) / 460.8e9 + pcie, 9);
  });

  it('a stated cluster.hostMemoryGBps is the bandwidth the step uses', () => {
    const c = run(
      { globalBatch: 1, framework: 'deepspeed', offload: { optimizer: true, parameters: false } },
      { dp: 1, zero: 1 },
      { gpu: 'rtx-4090', gpusPerNode: 1, gpus: 1, hostMemoryGBps: 40 },
    );
    expect(optimizerStepSeconds(c, { dense: 1e9, expert: 0 })).toBeCloseTo((1e9 * 30) / (40e9 * 0.75) + (1e9 * 6) / PCIE, 9);
  });

  it('a partial offload (optimizerFraction 0.25) steps a quarter on the host and the rest over HBM', () => {
    const c = run(
      { globalBatch: 1, framework: 'megatron', offload: { optimizer: true, parameters: false, optimizerFraction: 0.25 } },
      { dp: 1, zero: 1 },
      { gpu: 'h100-sxm', gpusPerNode: 1, gpus: 1 },
    );
    // Host: 0.25e9 × 30 bytes over 460.8 GB/s, and 0.25e9 × 6 bytes of PCIe; GPU: 0.75e9 × 30 bytes over 0.7 × 3,350 GB/s.
    const expected = (0.25e9 * 30) / 460.8e9 + (0.25e9 * 6) / PCIE + (0.75e9 * 30) / (0.7 * 3350e9);
    expect(optimizerStepSeconds(c, { dense: 1e9, expert: 0 })).toBeCloseTo(expected, 9);
  });
});

describe('the update on the GPU reads the working weight when there is no master', () => {
  it('bf16 Adam without a master: 2 × 4 + 2 + 2 × 2 = 14 bytes over 0.7 × HBM', () => {
    const c = run(
      { globalBatch: 1, framework: 'fsdp', masterWeights: false, gradDtype: 'bf16', optimizerStateDtype: 'bf16' },
      { dp: 1, zero: 0 },
      { gpu: 'a100-80gb', gpusPerNode: 1, gpus: 1 },
    );
    expect(optimizerStepSeconds(c, { dense: 1e9, expert: 0 })).toBeCloseTo((1e9 * 14) / (0.7 * 2039e9), 12);
  });
});
