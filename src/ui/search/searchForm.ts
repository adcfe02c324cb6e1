// The search form's text read as settings, or the reasons it cannot be, in the form's own
// words ("Most GPUs: …"), never a silently replaced value.

import type { FormText } from './SearchFormFields.tsx';
import type { SearchForm } from './searchRequest.ts';
import { INITIAL_SIZING } from './SizingFields.tsx';

export const INITIAL_FORM: FormText = {
  mode: 'layout', objective: 'tokensPerSecond', sizingObjective: 'usd', topK: '10', tpWithinNode: true, fixed: [], maxGpus: '', maxUsd: '',
  margin: '10', unevenLayers: false, sizing: INITIAL_SIZING,
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
  if (form.mode === 'layout' && maxGpus !== null && (!Number.isInteger(maxGpus) || maxGpus < 1)) errors.push('Max GPUs: a whole number of at least 1, or empty.');
  const maxUsd = empty(form.maxUsd) ? null : number(form.maxUsd);
  if (maxUsd !== null && !(Number.isFinite(maxUsd) && maxUsd > 0)) errors.push('Budget: a positive number of dollars, or empty.');
  const margin = number(form.margin);
  if (empty(form.margin) || !(Number.isFinite(margin) && margin >= 0 && margin <= MOST_MARGIN_PERCENT)) errors.push(`Memory kept free: a percentage from 0 to ${MOST_MARGIN_PERCENT}.`);
  const sizing = form.mode === 'sizing' ? readSizing(form, errors) : undefined;
  if (errors.length > 0) return { errors };
  return {
    form: {
      mode: form.mode, objective: form.mode === 'sizing' ? form.sizingObjective : form.objective, topK, tpWithinNode: form.tpWithinNode,
      fixed: form.fixed, maxGpus: form.mode === 'layout' ? maxGpus : null, maxUsd, memoryMarginPercent: margin, unevenLayers: form.unevenLayers,
      ...(sizing ? { sizing } : {}),
    },
  };
}

function readSizing(form: FormText, errors: string[]): SearchForm['sizing'] {
  const s = form.sizing;
  if (s.gpuTypes.length === 0) errors.push('GPU types to compare: choose at least one.');
  const minGpus = number(s.minGpus);
  const maxGpus = number(s.maxGpus);
  if (empty(s.minGpus) || !Number.isInteger(minGpus) || minGpus < 1 || minGpus > MOST_GPUS) errors.push(`Fewest GPUs: a whole number from 1 to ${MOST_GPUS.toLocaleString('en-US')}.`);
  if (empty(s.maxGpus) || !Number.isInteger(maxGpus) || maxGpus < 1 || maxGpus > MOST_GPUS) errors.push(`Most GPUs: a whole number from 1 to ${MOST_GPUS.toLocaleString('en-US')}.`);
  else if (Number.isInteger(minGpus) && minGpus > maxGpus) errors.push(`Most GPUs: ${maxGpus.toLocaleString('en-US')} is fewer than the fewest, ${minGpus.toLocaleString('en-US')}.`);
  const maxDays = empty(s.maxDays) ? null : number(s.maxDays);
  if (maxDays !== null && !(Number.isFinite(maxDays) && maxDays > 0)) errors.push('Max days: a positive number of days, or empty.');
  return { gpuTypes: s.gpuTypes, minGpus, maxGpus, maxDays };
}
