// Undo and redo of the configuration: buttons, Ctrl+Z / Ctrl+Shift+Z (Ctrl+Y, ⌘ on a
// Mac) anywhere on the page, and the note a preset leaves when it changed (or kept)
// something besides what it is about. The address bar follows the document (connect.ts).

import { useEffect } from 'react';
import { usePlanner, usePlannerStore } from '../state/react.ts';
import { BUTTON } from './buttons.ts';

/** Which history step a key press asks for, or null. Text boxes keep their own undo for the text being typed. */
export function historyKey(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
  inTextArea: boolean,
): 'undo' | 'redo' | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey || inTextArea) return null;
  const key = e.key.toLowerCase();
  if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && !e.shiftKey) return 'redo';
  return null;
}

export function HistoryKeys() {
  const store = usePlannerStore();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const step = historyKey(e, e.target instanceof HTMLTextAreaElement);
      if (!step) return;
      e.preventDefault();
      if (step === 'undo') store.getState().undo();
      else store.getState().redo();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
  return null;
}

export function HistoryButtons() {
  const store = usePlannerStore();
  const canUndo = usePlanner((s) => s.past.length > 0);
  const canRedo = usePlanner((s) => s.future.length > 0);
  return (
    <div role="group" aria-label="Configuration history" className="flex gap-2">
      <button type="button" className={BUTTON} disabled={!canUndo} aria-keyshortcuts="Control+Z" onClick={() => store.getState().undo()}>
        Undo
      </button>
      <button
        type="button"
        className={BUTTON}
        disabled={!canRedo}
        aria-keyshortcuts="Control+Shift+Z"
        onClick={() => store.getState().redo()}
      >
        Redo
      </button>
    </div>
  );
}

/**
 * What edits changed besides what they are about, one sentence a line, until dismissed; with an
 * Undo for exactly the newest noted edit while nothing has been edited since.
 */
export function PresetNote() {
  const store = usePlannerStore();
  const note = usePlanner((s) => s.changeNote);
  const undoable = usePlanner((s) => s.changeNoteDocument !== null && s.changeNoteDocument === s.document);
  if (!note) return null;
  return (
    <div
      role="status"
      data-testid="preset-note"
      className={
        'flex flex-wrap items-center justify-between gap-2 rounded-lg border border-blue-700 bg-blue-50 p-2 text-sm ' +
        'text-blue-950 dark:border-blue-400 dark:bg-blue-950 dark:text-blue-50'
      }
    >
      <ul className="min-w-0 flex-1">
        {note.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <div className="flex gap-2">
        {undoable && (
          <button type="button" className={BUTTON} onClick={() => store.getState().undo()}>
            Undo
          </button>
        )}
        <button type="button" className={BUTTON} onClick={() => store.getState().dismissChangeNote()}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
