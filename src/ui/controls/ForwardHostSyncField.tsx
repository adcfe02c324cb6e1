// training.forwardHostSync (memory/zero3-gather-cache.ts): whether the forward pass makes the
// host wait for the GPU in every layer. It moves memory only under DeepSpeed ZeRO-3, so the
// select shows there, and wherever the document states a value (so an explicit or bad one
// stays visible with its error). "default" leaves the field out of the document.

import { FORWARD_HOST_SYNCS, frameworkProfile, type Framework } from '../../model/input/index.ts';
import { getAt, type FieldPath } from '../../state/doc.ts';
import { usePlanner } from '../../state/react.ts';
import { HELP } from '../help.ts';
import { FieldSelect } from './fields.tsx';

const PATH: FieldPath = ['training', 'forwardHostSync'];
const DEFAULT_VALUE = '__default__';
const LABELS: Readonly<Record<string, string>> = {
  layer: 'every layer: a padded batch is unpadded',
  none: 'none: fixed-length sequences, no mask',
};

export function ForwardHostSyncField({ framework }: { framework: Framework }) {
  const value = usePlanner((s) => getAt(s.document, PATH));
  const zero = usePlanner((s) => getAt(s.document, ['parallel', 'zero']));
  const matters = frameworkProfile(framework).mechanisms.zero3GatherStreamCache && typeof zero === 'number' && zero >= 3;
  if (!matters && value === undefined) return null;
  const current = FORWARD_HOST_SYNCS.find((c) => c === value);
  const options = [
    { value: DEFAULT_VALUE, label: `default (${LABELS['layer'] ?? 'layer'})` },
    ...FORWARD_HOST_SYNCS.map((c) => ({ value: c, label: LABELS[c] ?? c })),
  ];
  if (value !== undefined && current === undefined) options.push({ value: String(value), label: `${String(value)} (not valid)` });
  const write = (v: string) => (v === DEFAULT_VALUE ? undefined : FORWARD_HOST_SYNCS.find((c) => c === v));
  return (
    <FieldSelect
      path={PATH}
      help={HELP.forwardHostSync}
      value={value === undefined ? DEFAULT_VALUE : String(value)}
      options={options}
      write={write}
    />
  );
}
