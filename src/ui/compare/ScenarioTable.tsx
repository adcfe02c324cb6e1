// The pinned scenarios and the current configuration side by side: one column each,
// its name editable, one row per field (scenarios.ts), the best of a row marked in
// words; per pin, Apply (load it into the controls) and Remove; the table exported as
// Markdown, CSV or a labelled PNG.

import { useMemo, useState } from 'react';
import type { EstimateOutput } from '../../model/input/index.ts';
import type { Doc } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { BUTTON } from '../buttons.ts';
import { INPUT } from '../controls/fields.tsx';
import { downloadBlob } from '../download.ts';
import { fileBaseName } from '../exporters.ts';
import { scenariosPng } from './scenarioPng.ts';
import { scenariosToCsv, scenariosToMarkdown } from './scenarioExport.ts';
import { scenarioTable, type ScenarioInput } from './scenarios.ts';
import { TableRegion } from '../TableRegion.tsx';
import { ExportBar } from '../ExportBar.tsx';

const CELL = 'px-2 py-1 align-top';
export const CURRENT_NAME = 'Current';

function NameInput({ index, name }: { index: number; name: string }) {
  const store = usePlannerStore();
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => {
    if (draft !== null) store.getState().renamePin(index, draft);
    setDraft(null);
  };
  return (
    <input
      type="text"
      value={draft ?? name}
      aria-label={`Name of pinned scenario ${index + 1}`}
      data-testid={`scenario-name-${index}`}
      maxLength={80}
      className={`${INPUT} min-w-24 font-semibold`}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
        if (e.key === 'Escape') setDraft(null);
      }}
    />
  );
}

function PinState({ output, errors }: { output: EstimateOutput | null; errors: readonly string[] }) {
  if (errors.length > 0) return <p className="mt-1 text-xs font-normal text-red-700 dark:text-red-300">Cannot run: {errors[0]}</p>;
  if (!output)
    return (
      <p role="status" className="mt-1 text-xs font-normal text-gray-700 dark:text-gray-300">
        Computing its estimate…
      </p>
    );
  return null;
}

export function ScenarioTable({ current }: { current: EstimateOutput }) {
  const store = usePlannerStore();
  const pinned = usePlanner((s) => s.pinned);
  const document = usePlanner((s) => s.document);
  const errors = usePlanner((s) => s.errors);
  const [status, setStatus] = useState('');
  const scenarios = useMemo(
    (): ScenarioInput[] => [
      ...pinned.map((p) => ({ name: p.name, document: p.document, output: p.output, errors: p.errors, current: false })),
      { name: CURRENT_NAME, document: document as Doc, output: errors.length > 0 ? null : current, errors, current: true },
    ],
    [pinned, document, errors, current],
  );
  const table = useMemo(() => scenarioTable(scenarios), [scenarios]);
  const base = `${fileBaseName(document).replace(/-plan$/, '')}-scenarios`;
  const save = (blob: Blob, extension: string) => {
    downloadBlob(blob, `${base}.${extension}`);
    setStatus(`Saved ${base}.${extension}`);
  };
  const savePng = async () => {
    const blob = await scenariosPng(table, 'Scenarios').catch(() => null);
    if (blob) save(blob, 'png');
    else setStatus('Could not draw the table as an image.');
  };
  return (
    <div className="flex flex-col gap-2">
      <TableRegion label="Scenarios side by side">
        <table data-testid="scenario-table" className="w-full text-left text-sm tabular-nums text-gray-900 dark:text-gray-100">
          <caption className="mb-1 text-left text-sm text-gray-700 dark:text-gray-300">
            Each pinned scenario and the current configuration. Memory is what the device holds against that scenario’s own GPU; ▲ marks the
            best of a row.
          </caption>
          <thead>
            <tr>
              <th scope="col" className={CELL}>
                Scenario
              </th>
              {pinned.map((p, i) => (
                <th key={i} scope="col" className={`${CELL} min-w-36`}>
                  <NameInput index={i} name={p.name} />
                  <PinState output={p.output} errors={p.errors} />
                </th>
              ))}
              <th scope="col" className={`${CELL} min-w-36`}>
                {CURRENT_NAME}
              </th>
            </tr>
          </thead>
          <tbody>
            {table.fields
              .filter((f) => f.id !== 'name')
              .map((field) => (
                <tr key={field.id} className="border-t border-gray-200 dark:border-gray-700">
                  <th scope="row" className={`${CELL} font-medium`}>
                    {field.label}
                  </th>
                  {field.cells.map((cell, i) => (
                    <td key={i} className={`${CELL} ${cell.best ? 'font-semibold' : ''}`} data-testid={`scenario-${field.id}-${i}`}>
                      {cell.text}
                      {cell.best && (
                        <>
                          {' '}
                          <span aria-hidden="true">▲</span>
                          <span className="sr-only">(best)</span>
                        </>
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            <tr className="border-t border-gray-200 dark:border-gray-700">
              <th scope="row" className={`${CELL} font-medium`}>
                Actions
              </th>
              {pinned.map((p, i) => (
                <td key={i} className={CELL}>
                  <div className="flex flex-wrap gap-1">
                    <button type="button" className={BUTTON} onClick={() => store.getState().applyPin(i)}>
                      Apply<span className="sr-only"> scenario {p.name}</span>
                    </button>
                    <button type="button" className={BUTTON} onClick={() => store.getState().unpin(i)}>
                      Remove<span className="sr-only"> scenario {p.name}</span>
                    </button>
                  </div>
                </td>
              ))}
              <td className={CELL} />
            </tr>
          </tbody>
        </table>
      </TableRegion>
      <ExportBar
        group="Export the scenarios"
        status={status}
        actions={[
          { label: 'Scenarios as Markdown', run: () => save(new Blob([scenariosToMarkdown(table)], { type: 'text/markdown' }), 'md') },
          { label: 'Scenarios as CSV', run: () => save(new Blob([scenariosToCsv(table)], { type: 'text/csv' }), 'csv') },
          { label: 'Scenarios as PNG', run: () => void savePng() },
        ]}
      />
    </div>
  );
}
