// The training method (issue 24): full training, or a fine-tune with frozen base weights
// and LoRA / QLoRA adapters (training.adapter in ../shared/spec/interchange.md): the method,
// the adapters' rank and the matrices they sit on. Full training removes the field, so a
// document that never had it reads exactly as before.

import { getAt } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { ADAPTER_MODULES, type AdapterModule } from '../../model/input/index.ts';
import { HELP } from '../help.ts';
import { ERROR_TEXT, HelpDetails, NumberField, SelectField, controlId, useFieldError } from './fields.tsx';
import { messageInWords } from '../errorWords.ts';

const METHOD_LABELS = {
  full: 'Full training (every weight)',
  lora: 'LoRA (frozen base, rank-r adapters)',
  qlora: 'QLoRA (4-bit NF4 base, adapters)',
} as const;
type Method = keyof typeof METHOD_LABELS;
const MODULE_LABELS: Readonly<Record<AdapterModule, string>> = {
  q: 'Query (q)',
  k: 'Key (k)',
  v: 'Value (v)',
  o: 'Attention output (o)',
  gate: 'FFN gate',
  up: 'FFN up',
  down: 'FFN down',
};
/** A new adapter: rank 16 on every linear (the QLoRA paper's recommendation: adapters on all linear layers, section 4). */
const NEW_ADAPTER = { rank: 16, modules: [...ADAPTER_MODULES] };

function methodOf(adapter: unknown): Method {
  const method = adapter && typeof adapter === 'object' ? (adapter as { method?: unknown }).method : undefined;
  return method === 'lora' || method === 'qlora' ? method : 'full';
}

export function TrainingMethod() {
  const store = usePlannerStore();
  const adapter = usePlanner((s) => getAt(s.document, ['training', 'adapter']));
  const method = methodOf(adapter);
  const current = adapter && typeof adapter === 'object' ? (adapter as Record<string, unknown>) : null;
  const modules = Array.isArray(current?.['modules']) ? (current['modules'] as unknown[]) : [...ADAPTER_MODULES];
  const setMethod = (next: string) => {
    if (next === 'full') store.getState().setField(['training', 'adapter'], undefined);
    else store.getState().setField(['training', 'adapter'], { ...NEW_ADAPTER, ...current, method: next });
  };
  const modulesId = controlId(['training', 'adapter', 'modules']);
  const modulesError = useFieldError(['training', 'adapter', 'modules']);
  const toggle = (module: AdapterModule, on: boolean) => {
    const next = ADAPTER_MODULES.filter((m) => (m === module ? on : modules.includes(m)));
    store.getState().setField(['training', 'adapter', 'modules'], next);
  };
  return (
    <div className="flex flex-col gap-3" data-testid="training-method">
      <SelectField
        id={controlId(['training', 'adapter', 'method'])}
        help={HELP.trainingMethod}
        value={method}
        errorPath={['training', 'adapter', 'method']}
        options={(Object.keys(METHOD_LABELS) as Method[]).map((m) => ({ value: m, label: METHOD_LABELS[m] }))}
        onChange={setMethod}
      />
      {method !== 'full' && (
        <>
          <NumberField path={['training', 'adapter', 'rank']} help={HELP.adapterRank} />
          <fieldset className="flex flex-col gap-1" aria-describedby={modulesError ? `${modulesId}-error` : undefined}>
            <legend className="text-sm font-medium text-gray-900 dark:text-gray-100">{HELP.adapterModules.label}</legend>
            <div className="grid grid-cols-2 gap-x-3 gap-y-1">
              {ADAPTER_MODULES.map((m) => (
                <div key={m} className="flex items-center gap-2">
                  <input
                    id={`${modulesId}-${m}`}
                    type="checkbox"
                    className="size-4 accent-blue-700 dark:accent-blue-300"
                    checked={modules.includes(m)}
                    onChange={(e) => toggle(m, e.target.checked)}
                  />
                  <label htmlFor={`${modulesId}-${m}`} className="text-sm text-gray-900 dark:text-gray-100">
                    {MODULE_LABELS[m]}
                  </label>
                </div>
              ))}
            </div>
            {modulesError && (
              <p id={`${modulesId}-error`} className={ERROR_TEXT}>
                {messageInWords(modulesError, HELP.adapterModules.label)}
              </p>
            )}
            <HelpDetails help={HELP.adapterModules} hintId={`${modulesId}-hint`} />
          </fieldset>
        </>
      )}
    </div>
  );
}
