// The interchange document's optional `search` block (issue 15; docs/search.md "The
// search block"): what the layout search and cluster sizing should optimise and within
// which limits. Read here, with field-named errors, because only the search uses it:
// `estimate` ignores the block.
//
//   "search": { "objective": "usd", "gpuTypes": ["a100-80gb", "h100-sxm", "h200"],
//               "minGpus": 256, "maxGpus": 2048, "maxDays": 60, "maxUsd": 5e6,
//               "memoryMargin": 0.1, "evenLayers": true }

import { GPU_PRESETS, findGpuPreset } from '../input/index.ts';
import { FieldReader, isObject, own } from '../input/index.ts';
import type { SearchObjective, SearchOptions } from './types.ts';

/** The block's objective names (the spec's words) and what the search calls them. */
export const BLOCK_OBJECTIVES: Readonly<Record<string, SearchObjective>> = {
  tokensPerSecond: 'tokensPerSecond',
  days: 'days',
  usd: 'usd',
  headroom: 'memoryHeadroom',
  // The command line's name for the same objective.
  memoryHeadroom: 'memoryHeadroom',
};
const SPEC_OBJECTIVES = ['tokensPerSecond', 'days', 'usd', 'headroom'];

const BLOCK_KEYS = ['objective', 'gpuTypes', 'minGpus', 'maxGpus', 'maxDays', 'maxUsd', 'memoryMargin', 'evenLayers'];

/** The largest cluster a range may reach: far above any built (xAI's Colossus: about 200,000 GPUs). */
export const MAX_SIZING_GPUS = 1_000_000;
/** The largest share of memory the margin may keep free: some memory must stay usable. */
export const MAX_MEMORY_MARGIN = 0.9;

export type SearchBlockOptions = Pick<
  SearchOptions,
  'objective' | 'gpuTypes' | 'gpuRange' | 'maxDays' | 'maxUsd' | 'memoryMargin' | 'evenLayerSplit'
>;

export interface SearchBlockRead {
  readonly options: SearchBlockOptions;
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

function readGpuTypes(r: FieldReader, value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length === 0) {
    r.error('search.gpuTypes', 'must be a list of GPU preset ids, such as ["a100-80gb", "h100-sxm"]');
    return undefined;
  }
  const ids: string[] = [];
  value.forEach((id: unknown, i) => {
    const preset = typeof id === 'string' ? findGpuPreset(id) : undefined;
    if (!preset)
      r.error(
        `search.gpuTypes[${i}]`,
        `unknown GPU preset ${JSON.stringify(id)?.slice(0, 40)}; known: ${GPU_PRESETS.map((g) => g.id).join(', ')}`,
      );
    else if (!ids.includes(preset.id)) ids.push(preset.id);
  });
  return ids;
}

/** The block read as search options; absent fields stay absent (the search's defaults apply). */
export function readSearchBlock(document: unknown): SearchBlockRead {
  const r = new FieldReader();
  const raw = isObject(document) ? own(document, 'search') : undefined;
  if (raw === undefined || raw === null) return { options: {}, errors: [], warnings: [] };
  if (!isObject(raw)) {
    r.error('search', 'must be an object');
    return { options: {}, errors: r.errors, warnings: r.warnings };
  }
  r.unknownKeys(raw, BLOCK_KEYS, 'search');
  const options: { -readonly [K in keyof SearchBlockOptions]: SearchBlockOptions[K] } = {};
  const objective = own(raw, 'objective');
  if (objective !== undefined && objective !== null) {
    const match = typeof objective === 'string' && Object.hasOwn(BLOCK_OBJECTIVES, objective) ? BLOCK_OBJECTIVES[objective] : undefined;
    if (match) options.objective = match;
    else
      r.error(
        'search.objective',
        `must be one of ${SPEC_OBJECTIVES.map((o) => JSON.stringify(o)).join(', ')}, got ${JSON.stringify(objective)?.slice(0, 40)}`,
      );
  }
  const gpuTypes = readGpuTypes(r, own(raw, 'gpuTypes'));
  if (gpuTypes && gpuTypes.length > 0) options.gpuTypes = gpuTypes;
  const given = (key: string) => own(raw, key) !== undefined && own(raw, key) !== null;
  const minGpus = given('minGpus') ? r.integer(raw, 'minGpus', 'search', 1, 1, MAX_SIZING_GPUS) : undefined;
  const maxGpus = given('maxGpus') ? r.integer(raw, 'maxGpus', 'search', 1, 1, MAX_SIZING_GPUS) : undefined;
  if (minGpus !== undefined && maxGpus === undefined)
    r.error('search.maxGpus', 'is required with search.minGpus: the largest cluster to consider');
  if (minGpus !== undefined && maxGpus !== undefined && minGpus > maxGpus)
    r.error('search.minGpus', `${minGpus} is more than search.maxGpus = ${maxGpus}`);
  else if (maxGpus !== undefined) options.gpuRange = { min: minGpus ?? 1, max: maxGpus };
  if (given('maxDays')) options.maxDays = r.number(raw, 'maxDays', 'search', 1, 0, 1e9, true);
  if (given('maxUsd')) options.maxUsd = r.number(raw, 'maxUsd', 'search', 1, 0, 1e15, true);
  if (given('memoryMargin')) options.memoryMargin = r.number(raw, 'memoryMargin', 'search', 0.1, 0, MAX_MEMORY_MARGIN);
  if (given('evenLayers')) options.evenLayerSplit = r.boolean(raw, 'evenLayers', 'search', true);
  return { options, errors: r.errors, warnings: r.warnings };
}
