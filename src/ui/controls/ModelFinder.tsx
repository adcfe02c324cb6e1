// The model field, searchable: a text field with the whole catalog as its list (loaded
// lazily, a chunk of its own), read on Enter, on leaving the field, or when an offered
// name or Hub id is picked. A Hub id's instruct, chat and dated variants resolve to the
// entry of their shape; the line under the field says which entry was used.

import { useEffect, useState } from 'react';
import { catalogEntries, findTyped, loadCatalog, type CatalogEntry } from '../../state/catalog.ts';
import { usePlannerStore } from '../../state/react.ts';
import { HELP } from '../help.ts';
import { FieldShell, HINT, INPUT, describedBy } from './fields.tsx';

/** The catalog entries: the presets at first, every entry once the catalog's chunk has loaded. */
export function useCatalogEntries(): readonly CatalogEntry[] {
  const [entries, setEntries] = useState(catalogEntries);
  useEffect(() => {
    let live = true;
    void loadCatalog().then((all) => {
      if (live) setEntries(all);
    });
    return () => {
      live = false;
    };
  }, []);
  return entries;
}

const FIND_ID = 'ctl-model-find';

export function ModelFinder({ entries }: { entries: readonly CatalogEntry[] }) {
  const store = usePlannerStore();
  const [text, setText] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const offered = new Set(entries.flatMap((e) => [e.model.name, ...e.hubIds]));
  const use = (value: string) => {
    if (value.trim() === '') return setNote(null);
    const found = findTyped(value, entries);
    if (!found)
      return setNote(
        `No model named ${value.trim()} in the catalog (${entries.length} models): pick one from the list, or import its config.json below.`,
      );
    store.getState().setModelPreset(found.entry.id);
    setNote(`Using the catalog entry ${found.entry.model.name} (${found.entry.id}), found ${found.how}.`);
  };
  return (
    <FieldShell
      id={FIND_ID}
      help={HELP.modelFind}
      error={null}
      extra={
        note && (
          <p className={HINT} role="status" data-testid="model-find-note">
            {note}
          </p>
        )
      }
    >
      <input
        id={FIND_ID}
        type="text"
        list={`${FIND_ID}-list`}
        className={INPUT}
        value={text}
        maxLength={200}
        autoComplete="off"
        spellCheck={false}
        placeholder="e.g. Qwen/Qwen3-4B-Instruct-2507"
        aria-describedby={describedBy(FIND_ID, null)}
        onChange={(e) => {
          setText(e.target.value);
          if (offered.has(e.target.value)) use(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') use(text);
        }}
        onBlur={() => use(text)}
      />
      <datalist id={`${FIND_ID}-list`}>
        {entries.flatMap((e) => [
          <option key={e.id} value={e.model.name}>
            {e.hubIds[0] ?? e.id}
          </option>,
          ...e.hubIds.map((hubId) => (
            <option key={`${e.id}:${hubId}`} value={hubId}>
              {e.model.name}
            </option>
          )),
        ])}
      </datalist>
    </FieldShell>
  );
}
