// The GPU presets: every GPU the page, the search and the parser know by id. Adding a
// GPU is one entry in GPU_PRESETS (docs/contributing.md).

import type { GpuArchitecture, GpuSpec } from './types.ts';

// Vendors' published dense (no sparsity) peaks. Where a datasheet gives only the
// sparse figure, the dense one is half of it. Bandwidths are per GPU, one direction,
// GB/s = 1e9 bytes/s: NVLink "900 GB/s" totals are bidirectional, so 450 each way.
// Inter-node bandwidth is the GPU's own NIC (one 400 Gb/s NDR port = 50 GB/s).
// usdPerHour is a typical 2026 on-demand cloud price, a placeholder to override.
// expTeraOpsPerSecond is the special-function units' exponential rate: SMs × MUFU
// results per clock per SM × boost clock. NVIDIA's CUDA C++ Programming Guide
// ("Arithmetic Instructions" throughput table) gives 16 exp2 per clock per SM for
// Volta to Blackwell; Blackwell Ultra doubles it ("Making Softmax More Efficient with
// NVIDIA Blackwell Ultra", NVIDIA technical blog, 2025).

export interface GpuPreset extends GpuSpec {
  readonly id: string;
  /**
   * GPUs on one NVLink domain (the fast link): 8 in an HGX/DGX server, 72 in a GB200/GB300
   * NVL72 rack. What cluster.gpusPerNode defaults to: the engine's communication model
   * keeps groups within it on NVLink (time/comm.ts).
   */
  readonly nvlinkDomainGpus: number;
  /**
   * GPUs in one OS node: one server, or one compute tray of an NVL72 rack (4 GPUs with 2
   * Grace CPUs, NVIDIA GB200 NVL72 datasheet). The unit a launcher starts processes on
   * (`torchrun --nproc-per-node`), that shares one host's CPU memory, and that clusters are
   * rented in. Never more than nvlinkDomainGpus.
   */
  readonly nodeGpus: number;
  readonly source: string;
  /**
   * CPU memory of one OS node of `nodeGpus` GPUs (a server, or an NVL72 compute tray) in the usual system for this GPU, GiB (the
   * default of cluster.hostMemoryGiB: what offloaded optimizer states and parameters must fit
   * in). Vendors' "2 TB" of DIMMs is 2 TiB (a 64 GB DIMM holds 64 GiB).
   */
  readonly hostMemoryGiB: number;
  readonly hostSource: string;
  /**
   * Peak memory bandwidth of that node's CPUs, GB/s = 1e9 bytes/s (channels × transfer rate ×
   * 8 bytes, summed over the sockets): the default of cluster.hostMemoryGBps, what an offloaded
   * optimizer step streams its states through (time/optimizer.ts).
   */
  readonly hostMemoryGBps: number;
  readonly hostMemoryGBpsSource: string;
}

/**
 * The H100 SXM5 die (132 SMs, 700 W class) that the H800 and H200 also carry: dense bf16/fp8/fp32 tensor rates and the
 * softmax exponential rate; each profile's `source` cites its datasheet.
 */
/** The A100 SXM4 die (108 SMs) of both memory sizes; the profiles' `source` cites the datasheet. */
const AMPERE_A100_SILICON = { bf16Tflops: 312, fp8Tflops: 0, fp32Tflops: 19.5, fp4Tflops: 0, expTeraOpsPerSecond: 2.44, sms: 108 } as const;
const HOPPER_SXM_SILICON = { bf16Tflops: 989, fp8Tflops: 1979, fp32Tflops: 67, fp4Tflops: 0, expTeraOpsPerSecond: 3.9, sms: 132 } as const;

const H100_SXM: GpuPreset = {
  id: 'h100-sxm',
  name: 'NVIDIA H100 SXM5 80GB',
  architecture: 'hopper',
  nvlinkDomainGpus: 8,
  nodeGpus: 8,
  memoryGiB: 80,
  ...HOPPER_SXM_SILICON,
  hbmGBps: 3350,
  intraNodeGBps: 450,
  interNodeGBps: 50,
  tdpWatts: 700,
  usdPerHour: 2.5,
  source:
    'NVIDIA H100 datasheet (SXM: BF16 1,979 sparse = 989 dense, FP8 3,958 ' +
    'sparse = 1,979 dense, 3.35 TB/s, NVLink 900 GB/s); DGX H100: 8x400 ' +
    'Gb/s NDR; exp 3.9 T/s (FlashAttention-3 paper figure for H100 SXM5)',
  hostMemoryGiB: 2048,
  hostSource: 'NVIDIA DGX H100 (DGX BasePOD reference architecture, core components): 2 TB of DDR5 system memory for 8 GPUs',
  hostMemoryGBps: 614.4,
  hostMemoryGBpsSource:
    'NVIDIA DGX H100 datasheet: 2 × Intel Xeon Platinum 8480C; 8 channels of DDR5-4800 a socket (Intel 4th Gen Xeon Scalable): 2 × 8 × 38.4 = 614.4 GB/s',
};

export const GPU_PRESETS: readonly GpuPreset[] = [
  {
    id: 'v100-32gb',
    name: 'NVIDIA V100 SXM2 32GB',
    architecture: 'volta',
    nvlinkDomainGpus: 8,
    nodeGpus: 8,
    // No bf16 tensor cores: bf16Tflops carries the fp16 tensor-core peak (125).
    memoryGiB: 32,
    bf16Tflops: 125,
    fp8Tflops: 0,
    fp32Tflops: 15.7,
    fp4Tflops: 0,
    expTeraOpsPerSecond: 1.96,
    sms: 80,
    hbmGBps: 900,
    intraNodeGBps: 150,
    interNodeGBps: 12.5,
    tdpWatts: 300,
    usdPerHour: 0.9,
    source:
      'NVIDIA Tesla V100 datasheet (SXM2: 125 TFLOPS tensor, 15.7 FP32, 900 GB/s HBM2, NVLink ' +
      '300 GB/s); DGX-1 4x100 Gb/s EDR per 8 GPUs; exp 1.96 T/s (80 SMs × 16 × 1.53 GHz)',
    hostMemoryGiB: 512,
    hostSource: 'NVIDIA DGX-1 with Tesla V100 datasheet: 512 GB of 2,133 MHz DDR4 RDIMM system memory for 8 GPUs',
    hostMemoryGBps: 136.5,
    hostMemoryGBpsSource:
      'NVIDIA DGX-1 with Tesla V100 datasheet: 2 × Intel Xeon E5-2698 v4 with 2,133 MHz DDR4; 4 channels a socket (Intel ARK): 2 × 4 × 17.06 = 136.5 GB/s',
  },
  {
    id: 'a100-40gb',
    name: 'NVIDIA A100 SXM4 40GB',
    architecture: 'ampere',
    nvlinkDomainGpus: 8,
    nodeGpus: 8,
    memoryGiB: 40,
    ...AMPERE_A100_SILICON,
    hbmGBps: 1555,
    intraNodeGBps: 300,
    interNodeGBps: 25,
    tdpWatts: 400,
    usdPerHour: 1.3,
    source:
      'NVIDIA A100 datasheet (BF16 312 TFLOPS dense, 1,555 GB/s, NVLink 600 GB/s); DGX A100: 8x200 Gb/s HDR; exp 2.44 T/s (108 SMs × 16 × 1.41 GHz)',
    hostMemoryGiB: 1024,
    hostSource: 'NVIDIA DGX A100 datasheet: 1 TB of system memory in the DGX A100 320GB (8 × A100 40GB)',
    hostMemoryGBps: 409.6,
    hostMemoryGBpsSource:
      'NVIDIA DGX A100 datasheet: 2 × AMD EPYC 7742 (Rome); 8 channels of DDR4-3200 a socket, 204.8 GB/s each (AMD EPYC 7742 specifications): 409.6 GB/s',
  },
  {
    id: 'a100-80gb',
    name: 'NVIDIA A100 SXM4 80GB',
    architecture: 'ampere',
    nvlinkDomainGpus: 8,
    nodeGpus: 8,
    memoryGiB: 80,
    ...AMPERE_A100_SILICON,
    hbmGBps: 2039,
    intraNodeGBps: 300,
    interNodeGBps: 25,
    tdpWatts: 400,
    usdPerHour: 1.8,
    source:
      'NVIDIA A100 datasheet (80GB SXM: BF16 312 TFLOPS dense, 2,039 GB/s, NVLink 600 GB/s); DGX A100: 8x200 Gb/s HDR; exp 2.44 T/s (108 SMs × 16 × 1.41 GHz)',
    hostMemoryGiB: 2048,
    hostSource: 'NVIDIA DGX A100 datasheet: 2 TB of system memory in the DGX A100 640GB (8 × A100 80GB); the 320GB system has 1 TB',
    hostMemoryGBps: 409.6,
    hostMemoryGBpsSource:
      'NVIDIA DGX A100 datasheet: 2 × AMD EPYC 7742 (Rome); 8 channels of DDR4-3200 a socket, 204.8 GB/s each (AMD EPYC 7742 specifications): 409.6 GB/s',
  },
  H100_SXM,
  {
    id: 'h100-pcie',
    name: 'NVIDIA H100 PCIe 80GB',
    architecture: 'hopper',
    nvlinkDomainGpus: 8,
    nodeGpus: 8,
    memoryGiB: 80,
    bf16Tflops: 756,
    fp8Tflops: 1513,
    fp32Tflops: 51,
    fp4Tflops: 0,
    expTeraOpsPerSecond: 3.2,
    sms: 114,
    hbmGBps: 2000,
    intraNodeGBps: 64,
    interNodeGBps: 50,
    tdpWatts: 350,
    usdPerHour: 2.0,
    source:
      'NVIDIA H100 datasheet (PCIe: BF16 1,513 sparse = 756 dense, FP8 1,513 dense, ' +
      '2 TB/s); PCIe Gen5 x16 64 GB/s each way; exp 3.2 T/s (114 SMs × 16 × 1.755 GHz)',
    hostMemoryGiB: 1024,
    hostSource:
      'No NVIDIA system of its own: a dual-socket 8-GPU PCIe server with one 64 GB DIMM on ' +
      'each of its 16 memory channels, 1 TB; an assumption, set cluster.hostMemoryGiB for yours',
    hostMemoryGBps: 614.4,
    hostMemoryGBpsSource:
      'The same dual-socket server with 4th Gen Xeon Scalable CPUs, 16 channels of DDR5-4800: 16 × 38.4 = ' +
      '614.4 GB/s; an assumption, set cluster.hostMemoryGBps for yours',
  },
  {
    ...H100_SXM,
    id: 'h800',
    name: 'NVIDIA H800 SXM5 80GB',
    intraNodeGBps: 200,
    usdPerHour: 2.0,
    source:
      'H100 SXM compute with NVLink cut to 400 GB/s; DeepSeek-V3 report (arXiv 2412.19437, section ' +
      '3.1): 400 Gb/s InfiniBand per GPU, NVLink 160 GB/s achieved; exp 3.9 T/s (H100 SXM silicon)',
    hostSource: 'HGX H800 servers are built as the DGX H100 (its NVLink cut): 2 TB of DDR5 system memory',
    hostMemoryGBps: 614.4,
    hostMemoryGBpsSource: 'As the DGX H100: 2 × Intel Xeon Platinum 8480C, 8 channels of DDR5-4800 a socket, 614.4 GB/s',
  },
  {
    id: 'h200',
    name: 'NVIDIA H200 SXM 141GB',
    architecture: 'hopper',
    nvlinkDomainGpus: 8,
    nodeGpus: 8,
    memoryGiB: 141,
    ...HOPPER_SXM_SILICON,
    hbmGBps: 4800,
    intraNodeGBps: 450,
    interNodeGBps: 50,
    tdpWatts: 700,
    usdPerHour: 3.5,
    source:
      'NVIDIA H200 datasheet (SXM: 141 GB HBM3e, 4.8 TB/s, BF16 1,979 sparse = 989 dense, FP8 3,958 sparse, NVLink 900 GB/s); exp 3.9 T/s (H100 SXM silicon)',
    hostMemoryGiB: 2048,
    hostSource: 'NVIDIA DGX H200 (DGX BasePOD reference architecture, core components): 2 TB of DDR5 system memory for 8 GPUs',
    hostMemoryGBps: 614.4,
    hostMemoryGBpsSource:
      'NVIDIA DGX H200 datasheet: 2 × Intel Xeon Platinum 8480C, as the DGX H100; 8 channels of DDR5-4800 a socket: 614.4 GB/s',
  },
  {
    id: 'b200',
    name: 'NVIDIA B200 180GB',
    architecture: 'blackwell',
    nvlinkDomainGpus: 8,
    nodeGpus: 8,
    memoryGiB: 180,
    bf16Tflops: 2250,
    fp8Tflops: 4500,
    fp32Tflops: 75,
    fp4Tflops: 9000,
    expTeraOpsPerSecond: 4.65,
    sms: 148,
    hbmGBps: 8000,
    intraNodeGBps: 900,
    interNodeGBps: 50,
    tdpWatts: 1000,
    usdPerHour: 5.0,
    source:
      'NVIDIA DGX/HGX B200 datasheet for 8 GPUs (FP4 144 PF, FP8 72 PF, BF16 ' +
      '36 PF sparse; 1,440 GB HBM3e; 64 TB/s; NVLink 1.8 TB/s per GPU), divided ' +
      'by 8 and halved for dense; exp 4.65 T/s (148 SMs × 16 × 1.965 GHz)',
    hostMemoryGiB: 2048,
    hostSource: 'NVIDIA DGX B200 user guide, hardware overview: system memory 2 TB using 32 DIMMs (upgradable to 4 TB)',
    hostMemoryGBps: 716.8,
    hostMemoryGBpsSource:
      'NVIDIA DGX B200 user guide: 2 × Intel Xeon Platinum 8570 (5th Gen Xeon Scalable, 8 channels of DDR5-5600 a socket): 2 × 8 × 44.8 = 716.8 GB/s',
  },
  {
    id: 'b300',
    name: 'NVIDIA B300 288GB',
    architecture: 'blackwell',
    nvlinkDomainGpus: 8,
    nodeGpus: 8,
    memoryGiB: 288,
    bf16Tflops: 2250,
    fp8Tflops: 4500,
    fp32Tflops: 75,
    fp4Tflops: 13500,
    expTeraOpsPerSecond: 9.7,
    sms: 160,
    hbmGBps: 8000,
    intraNodeGBps: 900,
    interNodeGBps: 100,
    tdpWatts: 1100,
    usdPerHour: 6.5,
    source:
      'NVIDIA HGX B300 datasheet for 8 GPUs (FP4 108 PF dense, FP8 72 PF sparse, ' +
      'BF16 36 PF sparse, 2.3 TB HBM3e, NVLink 1.8 TB/s per GPU, ConnectX-8 800 Gb/s); ' +
      'exp 9.7 T/s (160 SMs × 32 × 1.9 GHz: Blackwell Ultra doubles the SFU rate)',
    hostMemoryGiB: 2048,
    hostSource: 'NVIDIA DGX B300: 2 TB of system memory as shipped, as the DGX B200 (user guide: 2 TB using 32 DIMMs, upgradable to 4 TB)',
    hostMemoryGBps: 716.8,
    hostMemoryGBpsSource:
      'Taken as the DGX B200 (2 × Xeon Platinum 8570, 16 channels of DDR5-5600: 716.8 GB/s); an assumption, set cluster.hostMemoryGBps for yours',
  },
  {
    id: 'gb200',
    name: 'NVIDIA GB200 NVL72 (per GPU)',
    architecture: 'blackwell',
    nvlinkDomainGpus: 72,
    nodeGpus: 4,
    memoryGiB: 186,
    bf16Tflops: 2500,
    fp8Tflops: 5000,
    fp32Tflops: 80,
    fp4Tflops: 10000,
    expTeraOpsPerSecond: 4.65,
    sms: 148,
    hbmGBps: 8000,
    intraNodeGBps: 900,
    interNodeGBps: 50,
    tdpWatts: 1200,
    usdPerHour: 6.0,
    source:
      'NVIDIA GB200 NVL72 datasheet for 72 GPUs (FP4 1,440 PF, FP8 720 PF, BF16 360 PF ' +
      'sparse; 13.4 TB HBM3e; 576 TB/s; NVLink 130 TB/s), divided by 72 and halved for dense; ' +
      'exp 4.65 T/s (148 SMs × 16 × 1.965 GHz); 18 compute trays per rack, each 2 GB200 ' +
      'superchips = 4 GPUs and 2 Grace CPUs under one OS (NVIDIA GB200 NVL72 product page)',
    hostMemoryGiB: 894,
    hostSource:
      'NVIDIA GB200 NVL72 datasheet: up to 17 TB of LPDDR5X, 480 GB on each ' +
      'of the 36 Grace CPUs; one compute tray (2 Grace, 4 GPUs, one OS node) ' +
      'has 960 GB = 894 GiB (Azure ND GB200 v6: 4 GPUs, about 900 GB per VM)',
    hostMemoryGBps: 1024,
    hostMemoryGBpsSource:
      'NVIDIA GB200 NVL72 datasheet: LPDDR5X up to 18.4 TB/s over its 36 Grace CPUs, 512 GB/s each; a compute tray has 2 Grace: 1,024 GB/s',
  },
  {
    id: 'gb300',
    name: 'NVIDIA GB300 NVL72 (per GPU)',
    architecture: 'blackwell',
    nvlinkDomainGpus: 72,
    nodeGpus: 4,
    memoryGiB: 279,
    bf16Tflops: 2500,
    fp8Tflops: 5000,
    fp32Tflops: 80,
    fp4Tflops: 15000,
    expTeraOpsPerSecond: 9.7,
    sms: 160,
    hbmGBps: 8000,
    intraNodeGBps: 900,
    interNodeGBps: 100,
    tdpWatts: 1400,
    usdPerHour: 7.5,
    source:
      'NVIDIA GB300 NVL72 datasheet for 72 GPUs (FP4 1,080 PF dense, FP8 720 PF sparse, ' +
      'BF16 360 PF sparse; 20 TB HBM3e; NVLink 130 TB/s; ConnectX-8 800 Gb/s), divided by ' +
      '72; exp 9.7 T/s (160 SMs × 32 × 1.9 GHz: Blackwell Ultra doubles the SFU rate); 18 ' +
      'compute trays of 4 GPUs and 2 Grace CPUs per rack (NVIDIA GB300 NVL72 product page)',
    hostMemoryGiB: 894,
    hostSource:
      'NVIDIA GB300 NVL72: 36 Grace CPUs with 480 GB of LPDDR5X each, as the GB200 NVL72: 960 GB = 894 GiB per 4-GPU compute tray (one OS node)',
    hostMemoryGBps: 1024,
    hostMemoryGBpsSource:
      'Taken as the GB200 NVL72 compute tray (2 Grace CPUs, 512 GB/s of LPDDR5X each: 1,024 GB/s); an assumption, set cluster.hostMemoryGBps for yours',
  },
  {
    id: 'mi300x',
    name: 'AMD Instinct MI300X',
    architecture: 'cdna3',
    nvlinkDomainGpus: 8,
    nodeGpus: 8,
    // Infinity Fabric: 7 links of 64 GB/s each way to the other 7 GPUs of the node.
    memoryGiB: 192,
    bf16Tflops: 1307,
    fp8Tflops: 2615,
    fp32Tflops: 163,
    fp4Tflops: 0,
    expTeraOpsPerSecond: 10.2,
    sms: 304,
    hbmGBps: 5300,
    intraNodeGBps: 448,
    interNodeGBps: 50,
    tdpWatts: 750,
    usdPerHour: 2.5,
    source:
      'AMD Instinct MI300X datasheet (192 GB HBM3, 5.3 TB/s, BF16 1,307.4 TFLOPS and ' +
      'FP8 2,614.9 dense, 7x Infinity Fabric links 128 GB/s bidirectional); exp 10.2 ' +
      'T/s (304 CUs × 64 lanes × 2.1 GHz at the quarter rate of transcendental ops)',
    hostMemoryGiB: 2048,
    hostSource:
      'A dual-socket 8-GPU OAM server for the AMD Instinct MI300X platform with 32 × 64 GB ' +
      'DIMMs, 2 TB (as in DGX-class systems); an assumption, set cluster.hostMemoryGiB for yours',
    hostMemoryGBps: 921.6,
    hostMemoryGBpsSource:
      'A dual-socket AMD EPYC 9004 (Genoa) server, 12 channels of DDR5-4800 a socket (AMD EPYC 9004 specifications: 460.8 ' +
      'GB/s each): 921.6 GB/s; an assumption, set cluster.hostMemoryGBps for yours',
  },
  // Workstation and consumer GPUs people fine-tune on (issue 24). PCIe cards without NVLink:
  // GPU-to-GPU traffic crosses PCIe 4.0 x16 (31.5 GB/s each way, taken as 32); between
  // machines a 100 Gb/s Ethernet NIC (12.5 GB/s). Dense peaks with FP32 accumulate.
  {
    id: 'rtx-4090',
    name: 'NVIDIA GeForce RTX 4090 24GB',
    architecture: 'ada',
    nvlinkDomainGpus: 8,
    nodeGpus: 8,
    memoryGiB: 24,
    bf16Tflops: 165.2,
    fp8Tflops: 330.3,
    fp32Tflops: 82.6,
    fp4Tflops: 0,
    expTeraOpsPerSecond: 5.16,
    sms: 128,
    hbmGBps: 1008,
    intraNodeGBps: 32,
    interNodeGBps: 12.5,
    tdpWatts: 450,
    usdPerHour: 0.5,
    source:
      'NVIDIA Ada Lovelace architecture whitepaper v2.1, Appendix A (GeForce RTX 4090: ' +
      '24 GB GDDR6X, 1,008 GB/s, FP16/BF16 tensor with FP32 accumulate 165.2 dense ' +
      '/ 330.4 sparse, FP8 with FP32 accumulate 330.3 dense, FP32 82.6, 128 SMs at ' +
      '2.52 GHz boost, TGP 450 W; no NVLink); exp 5.16 T/s (128 SMs × 16 × 2.52 GHz)',
    hostMemoryGiB: 64,
    hostSource:
      'A desktop: 64 GB (2 × 32 GB DDR5), the usual memory of a one- or two-card PC; an assumption, set cluster.hostMemoryGiB for yours',
    hostMemoryGBps: 89.6,
    hostMemoryGBpsSource:
      'A desktop with 2 channels of DDR5-5600 (Intel ARK, Core i9-14900K: max memory bandwidth 89.6 GB/s); an assumption, set cluster.hostMemoryGBps for yours',
  },
  {
    id: 'rtx-6000-ada',
    name: 'NVIDIA RTX 6000 Ada Generation 48GB',
    architecture: 'ada',
    nvlinkDomainGpus: 8,
    nodeGpus: 8,
    memoryGiB: 48,
    bf16Tflops: 364.2,
    fp8Tflops: 728.5,
    fp32Tflops: 91.1,
    fp4Tflops: 0,
    expTeraOpsPerSecond: 5.69,
    sms: 142,
    hbmGBps: 960,
    intraNodeGBps: 32,
    interNodeGBps: 12.5,
    tdpWatts: 300,
    usdPerHour: 0.9,
    source:
      'NVIDIA RTX 6000 Ada Generation datasheet (48 GB GDDR6 ECC, 960 GB/s, FP32 91.1 TFLOPS, tensor ' +
      '1,457 TFLOPS = FP8 with sparsity, so FP8 728.5 and ' +
      'BF16 364.2 dense; 300 W; PCIe 4.0 x16; no NVLink); ' +
      'Ada whitepaper v2.1 Appendix A (142 SMs, 2.505 GHz boost); exp 5.69 T/s (142 × 16 × 2.505 GHz)',
    hostMemoryGiB: 256,
    hostSource:
      'A workstation (Dell Precision 7960 or Lenovo ThinkStation PX, which take up to ' +
      '4 RTX 6000 Ada) with 256 GB; an assumption, set cluster.hostMemoryGiB for yours',
    hostMemoryGBps: 307.2,
    hostMemoryGBpsSource:
      "That workstation's Xeon W-3400 CPU, 8 channels of DDR5-4800 (Intel ARK, Xeon w9-3495X): 8 × 38.4 = " +
      '307.2 GB/s; an assumption, set cluster.hostMemoryGBps for yours',
  },
  {
    id: 'a10g',
    name: 'NVIDIA A10G 24GB (AWS G5)',
    architecture: 'ampere',
    nvlinkDomainGpus: 8,
    nodeGpus: 8,
    memoryGiB: 24,
    bf16Tflops: 70,
    fp8Tflops: 0,
    fp32Tflops: 35,
    fp4Tflops: 0,
    expTeraOpsPerSecond: 2.19,
    sms: 80,
    hbmGBps: 600,
    intraNodeGBps: 32,
    interNodeGBps: 12.5,
    tdpWatts: 300,
    usdPerHour: 1.0,
    source:
      'AWS-only variant of the A10 without an NVIDIA datasheet: 24 GB GDDR6, 600 GB/s, BF16 tensor 70 ' +
      'TFLOPS dense, FP32 35 TFLOPS, 80 SMs at 1.71 GHz (AWS EC2 G5 instance page; spec table in ' +
      'Baseten, "NVIDIA A10 vs A10G for ML model inference", 2023); g5.48xlarge: 8 GPUs on PCIe 4.0, 100 ' +
      'Gb/s networking; price: g5.xlarge on-demand about $1.01/h; exp 2.19 T/s (80 × 16 × 1.71 GHz)',
    hostMemoryGiB: 768,
    hostSource: 'AWS EC2 G5 instance types: g5.48xlarge, 8 × A10G with 768 GiB of memory',
    hostMemoryGBps: 409.6,
    hostMemoryGBpsSource:
      'AWS EC2 G5: 2nd Gen AMD EPYC (Rome) hosts; g5.48xlarge as 2 sockets with 8 channels of DDR4-3200 each (204.8 GB/s a socket): 409.6 GB/s; an assumption',
  },
  {
    id: 'l40s',
    name: 'NVIDIA L40S 48GB',
    architecture: 'ada',
    nvlinkDomainGpus: 8,
    nodeGpus: 8,
    memoryGiB: 48,
    bf16Tflops: 362,
    fp8Tflops: 733,
    fp32Tflops: 91.6,
    fp4Tflops: 0,
    expTeraOpsPerSecond: 5.73,
    sms: 142,
    hbmGBps: 864,
    intraNodeGBps: 32,
    interNodeGBps: 12.5,
    tdpWatts: 350,
    usdPerHour: 1.2,
    source:
      'NVIDIA L40S datasheet (48 GB GDDR6 ECC, 864 GB/s, FP32 91.6 TFLOPS, BF16 tensor ' +
      '362.05 dense / 733 sparse, FP8 733 dense / 1,466 sparse, 350 W, PCIe Gen4 ' +
      'x16, no NVLink); 142 SMs at 2.52 GHz boost; exp 5.73 T/s (142 × 16 × 2.52 GHz)',
    hostMemoryGiB: 1536,
    hostSource: 'AWS EC2 G6e instance types: g6e.48xlarge, 8 × L40S with 1,536 GiB of memory',
    hostMemoryGBps: 409.6,
    hostMemoryGBpsSource:
      'AWS EC2 G6e: 3rd Gen AMD EPYC (Milan) hosts; g6e.48xlarge as 2 sockets with 8 channels of ' +
      'DDR4-3200 each (204.8 GB/s a socket): 409.6 GB/s; an assumption',
  },
];

/** The GPU assumed where nothing names one (a launch file read by model/import/): the GPU most published runs use. */
export const DEFAULT_GPU_ID = 'h100-sxm';

/**
 * A custom GPU's exponential rate when the document does not give one: its BF16 peak
 * over H100 SXM's ratio of 989 TFLOP/s to 3.9 T exponentials per second (FlashAttention-3,
 * arXiv 2407.08608, section 3), the ratio of the GPUs most runs use.
 */
export function defaultExpTeraOpsPerSecond(bf16Tflops: number): number {
  return (bf16Tflops * 3.9) / 989;
}

/**
 * The architecture a custom GPU's name says: Hopper for a name with H100, H200, H800 or
 * GH200 in it, the one architecture the engine treats apart (time/stack-time.ts); every
 * other name reads as 'other'. A preset carries its own.
 */
export function architectureOfGpuName(name: string): GpuArchitecture {
  return /\b(G?H(100|200|800))\b/i.test(name) ? 'hopper' : 'other';
}

/**
 * GPUs per OS node of a cluster (a server, or an NVL72 compute tray): the preset's
 * nodeGpus, but never more than cluster.gpusPerNode (a user who states smaller nodes is
 * believed); a custom GPU's node is cluster.gpusPerNode. What launch files start per node
 * (export/common.ts) and what cluster sizing counts in (search/sizing.ts).
 */
export function osNodeGpus(cluster: { readonly gpuId: string | null; readonly gpusPerNode: number }): number {
  const preset = cluster.gpuId === null ? undefined : byId.get(cluster.gpuId);
  return Math.max(1, Math.min(cluster.gpusPerNode, preset?.nodeGpus ?? cluster.gpusPerNode));
}

/**
 * cluster.hostMemoryGiB when the document gives none: the preset's usual server, and for a
 * custom GPU the server of the GPU most published runs use (DEFAULT_GPU_ID: a DGX H100, 2 TiB).
 */
export function defaultHostMemoryGiB(gpuId: string | null): number {
  return findGpuPreset(gpuId ?? DEFAULT_GPU_ID)?.hostMemoryGiB ?? findGpuPreset(DEFAULT_GPU_ID)?.hostMemoryGiB ?? 2048;
}

/**
 * cluster.hostMemoryGBps when the document gives none: the preset's usual server, and for a
 * custom GPU the server of the GPU most published runs use (DEFAULT_GPU_ID: a DGX H100), as
 * defaultHostMemoryGiB.
 */
export function defaultHostMemoryGBps(gpuId: string | null): number {
  return findGpuPreset(gpuId ?? DEFAULT_GPU_ID)?.hostMemoryGBps ?? findGpuPreset(DEFAULT_GPU_ID)?.hostMemoryGBps ?? 614.4;
}

const byId = new Map(GPU_PRESETS.map((g) => [g.id, g] as const));

export function findGpuPreset(id: string): GpuPreset | undefined {
  return byId.get(id);
}
