// Import a model from a Hugging Face config.json, pasted or uploaded.

import { useId, useState } from 'react';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { HELP } from '../help.ts';
import { BUTTON } from '../buttons.ts';
import { HINT, HelpDetails } from './fields.tsx';
import { FilePicker, ImportFailure, PasteBox, readFileText } from './importParts.tsx';

export function HfImport() {
  const store = usePlannerStore();
  const status = usePlanner((s) => s.importStatus);
  const [text, setText] = useState('');
  const id = useId();
  const importText = (value: string) => store.getState().importHfConfigText(value);
  return (
    <div className="flex flex-col gap-2 rounded border border-gray-300 p-3 dark:border-gray-700">
      <PasteBox
        id={id}
        label={<>Import a {HELP.hfImport.label} (HF)</>}
        placeholder='{"architectures": ["LlamaForCausalLM"], "hidden_size": 4096, …}'
        hint={<>{HELP.hfImport.explain} Unknown architectures are refused with the reason.</>}
        text={text}
        onText={setText}
      />
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={BUTTON} onClick={() => importText(text)}>
          Import pasted config
        </button>
        <FilePicker
          id={id}
          label="or upload config.json:"
          accept=".json,application/json"
          onFile={(file) => readFileText(file, importText)}
        />
      </div>
      {status && !status.ok && <ImportFailure what="config.json" lines={status.lines} />}
      {status?.ok && (
        <div role="status" className={HINT}>
          <ul>
            {status.lines.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      <HelpDetails
        help={{
          ...HELP.hfImport,
          source: 'Hugging Face transformers model configuration classes (LlamaConfig, MixtralConfig, DeepseekV3Config, …)',
        }}
      />
    </div>
  );
}
