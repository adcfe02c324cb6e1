// The search form's text read as settings, or the reasons it cannot be, in the form's own
// words ("Most GPUs: …"), never a silently replaced value.

import { readSearchBlock } from '../../model/search/index.ts';
import type { FormText } from './SearchFormFields.tsx';
import type { SearchForm } from './searchRequest.ts';
import { INITIAL_SIZING } from './SizingFields.tsx';
import { defaultMarginPercent } from '../uncertainty/memoryVerdict.ts';

export const INITIAL_FORM: FormText = {
  mode: 'layout',
  objective: 'tokensPerSecond',
  sizingObjective: 'usd',
  topK: '10',
  tpWithinNode: true,
  fixed: [],
  maxGpus: '',
  maxUsd: '',
  margin: defaultMarginPercent(),
  unevenLayers: false,
  sizing: INITIAL_SIZING,
};

/** The largest cluster the sizing range may reach (search-block.ts MAX_SIZING_GPUS). */
const MOST_GPUS = 1_000_000;
/** Memory kept free, percent: search-block.ts MAX_MEMORY_MARGIN. */
const MOST_MARGIN_PERCENT = 90;

const number = (text: string) => Number(text.replace(/[$,_\s]/g, ''));
const empty = (text: string) => text.trim() === '';

export function readForm(form: FormText): { form: SearchForm } | { errors: string[] } {
  const errors: string[] = [];
  const topK = Number(form.topK);
  if (!Number.isInteger(topK) || topK < 1 || topK > 50) errors.push('Layouts to list: a whole number from 1 to 50.');
  const maxGpus = empty(form.maxGpus) ? null : number(form.maxGpus);
  if (form.mode === 'layout' && maxGpus !== null && (!Number.isInteger(maxGpus) || maxGpus < 1))
    errors.push('Max GPUs: a whole number of at least 1, or empty.');
  const maxUsd = empty(form.maxUsd) ? null : number(form.maxUsd);
  if (maxUsd !== null && !(Number.isFinite(maxUsd) && maxUsd > 0)) errors.push('Budget: a positive number of dollars, or empty.');
  const margin = number(form.margin);
  if (empty(form.margin) || !(Number.isFinite(margin) && margin >= 0 && margin <= MOST_MARGIN_PERCENT))
    errors.push(`Memory kept free: a percentage from 0 to ${MOST_MARGIN_PERCENT}.`);
  const sizing = form.mode === 'sizing' ? readSizing(form, errors) : undefined;
  if (errors.length > 0) return { errors };
  return {
    form: {
      mode: form.mode,
      objective: form.mode === 'sizing' ? form.sizingObjective : form.objective,
      topK,
      tpWithinNode: form.tpWithinNode,
      fixed: form.fixed,
      maxGpus: form.mode === 'layout' ? maxGpus : null,
      maxUsd,
      memoryMarginPercent: margin,
      unevenLayers: form.unevenLayers,
      ...(sizing ? { sizing } : {}),
    },
  };
}

function readSizing(form: FormText, errors: string[]): SearchForm['sizing'] {
  const s = form.sizing;
  if (s.gpuTypes.length === 0) errors.push('GPU types to compare: choose at least one.');
  const minGpus = number(s.minGpus);
  const maxGpus = number(s.maxGpus);
  if (empty(s.minGpus) || !Number.isInteger(minGpus) || minGpus < 1 || minGpus > MOST_GPUS)
    errors.push(`Fewest GPUs: a whole number from 1 to ${MOST_GPUS.toLocaleString('en-US')}.`);
  if (empty(s.maxGpus) || !Number.isInteger(maxGpus) || maxGpus < 1 || maxGpus > MOST_GPUS)
    errors.push(`Most GPUs: a whole number from 1 to ${MOST_GPUS.toLocaleString('en-US')}.`);
  else if (Number.isInteger(minGpus) && minGpus > maxGpus)
    errors.push(`Most GPUs: ${maxGpus.toLocaleString('en-US')} is fewer than the fewest, ${minGpus.toLocaleString('en-US')}.`);
  const maxDays = empty(s.maxDays) ? null : number(s.maxDays);
  if (maxDays !== null && !(Number.isFinite(maxDays) && maxDays > 0)) errors.push('Max days: a positive number of days, or empty.');
  return { gpuTypes: s.gpuTypes, minGpus, maxGpus, maxDays };
}

/**
 * The form as the document's `search` block sets it (docs/search.md), so a shared link or
 * an imported file with a block opens the panel on its question; fields the block leaves
 * out, or gives wrongly, keep the form's defaults (the search reports the block's errors
 * when the document is searched from the command line).
 */
export function formFromDocument(doc: unknown, form: FormText = INITIAL_FORM): FormText {
  const { options, errors } = readSearchBlock(doc);
  if (errors.length > 0 || Object.keys(options).length === 0) return form;
  const sizing = options.gpuRange !== undefined || (options.gpuTypes?.length ?? 0) > 1;
  const text = (n: number | undefined, fallback: string) => (n === undefined ? fallback : String(n));
  return {
    ...form,
    mode: sizing ? 'sizing' : 'layout',
    ...(options.objective ? (sizing ? { sizingObjective: options.objective } : { objective: options.objective }) : {}),
    maxUsd: text(options.maxUsd, form.maxUsd),
    margin: options.memoryMargin === undefined ? form.margin : String(Math.round(options.memoryMargin * 1000) / 10),
    unevenLayers: options.evenLayerSplit === undefined ? form.unevenLayers : !options.evenLayerSplit,
    sizing: {
      gpuTypes: options.gpuTypes ?? form.sizing.gpuTypes,
      minGpus: text(options.gpuRange?.min, form.sizing.minGpus),
      maxGpus: text(options.gpuRange?.max, form.sizing.maxGpus),
      maxDays: text(options.maxDays, form.sizing.maxDays),
    },
  };
}
