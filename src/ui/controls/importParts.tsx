// The pieces of the page's import boxes (HfImport.tsx, LaunchImport.tsx, log/LogSection.tsx):
// a labelled box to paste into, a file picker, a drop target's state, and the alert that
// lists why an import failed.

import { useState, type ChangeEvent, type DragEvent, type ReactNode } from 'react';
import { ERROR_TEXT, HINT, INPUT } from './fields.tsx';

/** The file picker's button drawn like the page's buttons. */
const FILE_INPUT =
  'max-w-full text-sm text-gray-900 file:mr-2 file:rounded file:border file:border-gray-400 file:bg-gray-100 file:px-2 file:py-1 ' +
  'file:text-gray-900 dark:text-gray-100 dark:file:bg-gray-800 dark:file:text-gray-100';

/** A label, a box of monospace text to paste into, and (when given) the hint under it. */
export function PasteBox(props: {
  id: string;
  label: ReactNode;
  placeholder: string;
  hint?: ReactNode;
  text: string;
  onText: (text: string) => void;
}) {
  const { id, label, placeholder, hint, text, onText } = props;
  return (
    <>
      <label htmlFor={`${id}-text`} className="text-sm font-medium text-gray-900 dark:text-gray-100">
        {label}
      </label>
      <textarea
        id={`${id}-text`}
        rows={3}
        className={`${INPUT} font-mono text-xs`}
        value={text}
        spellCheck={false}
        placeholder={placeholder}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onText(e.target.value)}
      />
      {hint && (
        <p id={`${id}-hint`} className={HINT}>
          {hint}
        </p>
      )}
    </>
  );
}

/** A label and a file input; the chosen file is handed on and the input cleared, so the same file can be chosen again. */
export function FilePicker(props: { id: string; label: string; accept: string; plain?: boolean; onFile: (file: File) => void }) {
  const { id, label, accept, plain = false, onFile } = props;
  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file) onFile(file);
    e.target.value = '';
  };
  return (
    <>
      <label htmlFor={`${id}-file`} className="text-sm text-gray-900 dark:text-gray-100">
        {label}
      </label>
      <input id={`${id}-file`} type="file" accept={accept} className={plain ? 'text-sm' : FILE_INPUT} onChange={pick} />
    </>
  );
}

/**
 * The file's text handed to `withText`; a file that cannot be read calls `unread`, by default `withText('')`
 * (the importer then says what is missing).
 */
export function readFileText(file: Blob, withText: (text: string) => void, unread: () => void = () => withText('')): void {
  void file.text().then(withText, unread);
}

/** Whether something is dragged over the target, and the target's handlers: `onDrop` gets the drop, the default prevented. */
export function useDropTarget<T extends Element>(onDrop: (e: DragEvent<T>) => void) {
  const [dragging, setDragging] = useState(false);
  const handlers = {
    onDrop: (e: DragEvent<T>) => {
      e.preventDefault();
      setDragging(false);
      onDrop(e);
    },
    onDragOver: (e: DragEvent<T>) => {
      e.preventDefault();
      setDragging(true);
    },
    onDragLeave: () => setDragging(false),
  };
  return { dragging, handlers };
}

/** "The config.json could not be imported:" and each reason. */
export function ImportFailure({ what, lines }: { what: string; lines: readonly string[] }) {
  return (
    <div role="alert" className={ERROR_TEXT}>
      <p>The {what} could not be imported:</p>
      <ul className="list-disc pl-5">
        {lines.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
    </div>
  );
}
