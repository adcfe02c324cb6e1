// The first comment line the planner's own launch files carry (export/common.ts planTitle:
// "… for Llama 3 70B on 64 × NVIDIA H100 SXM5 80GB, from llm-train-planner."): the model's
// name and the GPU, which no framework's flags hold, so that a file the planner wrote comes
// back whole. A file from anywhere else has no such line and gives nothing.

import { GPU_PRESETS } from '../input/index.ts';

export interface PlannerHeader {
  readonly modelName: string;
  /** A preset id, when the GPU's name is a preset's. */
  readonly gpu: string | null;
}

const HEADER = /^(?:#|\s*")[^\n]*? for (.{1,200}?) on \d+ × (.{1,100}?), from llm-train-planner[.:]/m;

export function readPlannerHeader(text: string): PlannerHeader | null {
  const match = HEADER.exec(text.slice(0, 4000));
  if (!match) return null;
  const gpuName = match[2] ?? '';
  return { modelName: match[1] ?? '', gpu: GPU_PRESETS.find((g) => g.name === gpuName)?.id ?? null };
}
