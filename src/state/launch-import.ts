// A launch file's document (model/import/) laid over the page's configuration: what the
// file says wins, what it cannot say stays as it was. The file names no GPU (the page's
// stays); a model it cannot describe (a DeepSpeed config without config.json, a torchtitan
// model without a known flavor) leaves the page's model; a batch or token budget it leaves
// open keeps the page's; its layout replaces the page's whole, so no degree of the old
// layout lingers beside the new one (an absent DP follows from the GPUs).

import { isPlainObject, type Doc } from './doc.ts';

const KEPT_TRAINING_KEYS = ['seqLen', 'globalBatch', 'microBatch', 'tokens'];

function section(doc: Doc, key: string): Doc {
  const value = doc[key];
  return isPlainObject(value) ? (value as Doc) : {};
}

export function mergeLaunchImport(current: Doc, imported: Doc): Doc {
  const model = section(imported, 'model');
  const describesModel = Object.keys(model).some((k) => k !== 'name');
  const kept = Object.fromEntries(Object.entries(section(current, 'training')).filter(([k]) => KEPT_TRAINING_KEYS.includes(k)));
  const { gpu: _ignored, ...cluster } = section(imported, 'cluster');
  return {
    ...current,
    model: describesModel ? model : section(current, 'model'),
    training: { ...kept, ...section(imported, 'training') },
    parallel: section(imported, 'parallel'),
    cluster: { ...section(current, 'cluster'), ...cluster },
  };
}
