// model.slidingWindow on the page: a check box that adds a window (every layer) or removes
// it, the window in tokens, and which layers slide, as the common patterns of
// Hugging Face's layer_types (an imported pattern that is none of them is kept and named).

import { getAt, isPlainObject, pathUnder } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { HELP } from '../help.ts';
import { CheckField, NumberField, SelectField } from './fields.tsx';

const WINDOW_PATH = pathUnder('model', 'slidingWindow');
const TYPES_PATH = pathUnder('model.slidingWindow', 'layerTypes');
/** Mistral 7B v0.1's window (config.json sliding_window 4096), the starting point to edit. */
const WINDOW_STARTER = { window: 4096 };
const S = 'sliding_attention';
const F = 'full_attention';

/** The layer patterns offered, by the period of layer_types they write (absent: every layer). */
const PATTERNS: readonly { value: string; label: string; layerTypes: readonly string[] | null }[] = [
  { value: 'every', label: 'Every layer (Mistral 7B)', layerTypes: null },
  { value: 'alternate', label: 'Alternate (GPT-OSS, Gemma 2)', layerTypes: [S, F] },
  { value: 'five-to-one', label: '5 of 6 (Gemma 3)', layerTypes: [S, S, S, S, S, F] },
];
const IMPORTED = 'imported';

function patternOf(layerTypes: unknown): string {
  const found = PATTERNS.find((p) =>
    p.layerTypes === null ? layerTypes === undefined || layerTypes === null : JSON.stringify(p.layerTypes) === JSON.stringify(layerTypes),
  );
  return found?.value ?? IMPORTED;
}

export function SlidingWindowFields() {
  const store = usePlannerStore();
  const value = usePlanner((s) => getAt(s.document, WINDOW_PATH));
  const layerTypes = usePlanner((s) => getAt(s.document, TYPES_PATH));
  const on = isPlainObject(value);
  const replace = (path: typeof WINDOW_PATH | typeof TYPES_PATH, v: unknown) => store.getState().setModelField(path, v);
  const pattern = patternOf(layerTypes);
  const options = [
    ...(pattern === IMPORTED
      ? [{ value: IMPORTED, label: `As imported (${Array.isArray(layerTypes) ? layerTypes.length : 0}-layer pattern)` }]
      : []),
    ...PATTERNS.map(({ value: v, label }) => ({ value: v, label })),
  ];
  return (
    <>
      <CheckField
        path={WINDOW_PATH}
        help={HELP.slidingWindow}
        fallback={on}
        onChange={(checked) => replace(WINDOW_PATH, checked ? WINDOW_STARTER : null)}
      />
      {on && (
        <div className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-3">
          <NumberField path={pathUnder('model.slidingWindow', 'window')} help={HELP.slidingWindowTokens} />
          <SelectField
            id="ctl-model-slidingWindow-layers"
            help={HELP.slidingWindowLayers}
            value={pattern}
            options={options}
            errorPath={TYPES_PATH}
            onChange={(v) => {
              const chosen = PATTERNS.find((p) => p.value === v);
              if (chosen) replace(TYPES_PATH, chosen.layerTypes);
            }}
          />
        </div>
      )}
    </>
  );
}
