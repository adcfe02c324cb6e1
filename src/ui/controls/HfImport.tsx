// Import a model from a Hugging Face config.json, pasted or uploaded.

import { useId, useState } from 'react';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { HELP } from '../help.ts';
import { BUTTON } from '../buttons.ts';
import { ERROR_TEXT, HINT, HelpDetails, INPUT } from './fields.tsx';

export function HfImport() {
  const store = usePlannerStore();
  const status = usePlanner((s) => s.importStatus);
  const [text, setText] = useState('');
  const id = useId();
  const importText = (value: string) => store.getState().importHfConfigText(value);
  return (
    <div className="flex flex-col gap-2 rounded border border-gray-300 p-3 dark:border-gray-700">
      <label htmlFor={`${id}-text`} className="text-sm font-medium text-gray-900 dark:text-gray-100">
        Import a {HELP.hfImport.label} (HF)
      </label>
      <textarea
        id={`${id}-text`}
        rows={3}
        className={`${INPUT} font-mono text-xs`}
        value={text}
        spellCheck={false}
        placeholder='{"architectures": ["LlamaForCausalLM"], "hidden_size": 4096, …}'
        aria-describedby={`${id}-hint`}
        onChange={(e) => setText(e.target.value)}
      />
      <p id={`${id}-hint`} className={HINT}>
        {HELP.hfImport.explain} Unknown architectures are refused with the reason.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={BUTTON} onClick={() => importText(text)}>
          Import pasted config
        </button>
        <label htmlFor={`${id}-file`} className="text-sm text-gray-900 dark:text-gray-100">
          or upload config.json:
        </label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".json,application/json"
          className="max-w-full text-sm text-gray-900 file:mr-2 file:rounded file:border file:border-gray-400 file:bg-gray-100 file:px-2 file:py-1 file:text-gray-900 dark:text-gray-100 dark:file:bg-gray-800 dark:file:text-gray-100"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void file.text().then(importText, () => importText(''));
            e.target.value = '';
          }}
        />
      </div>
      {status && !status.ok && (
        <div role="alert" className={ERROR_TEXT}>
          <p>The config.json could not be imported:</p>
          <ul className="list-disc pl-5">
            {status.lines.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </div>
      )}
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
