// A titled group of controls that folds away. The title is a button with aria-expanded
// (the disclosure pattern: Enter and Space fold and unfold it, screen readers say its
// state); the fold state lasts for the browser session (sessionStorage), never the link.

import { useId, useState, type ReactNode } from 'react';

const FOLDED_KEY = 'llm-train-planner:folded-sections';

function readFolded(): readonly string[] {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(FOLDED_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    // No storage (a sandboxed frame, storage off): every section starts open.
    return [];
  }
}

function rememberFolded(id: string, folded: boolean): void {
  const others = readFolded().filter((v) => v !== id);
  try {
    window.sessionStorage.setItem(FOLDED_KEY, JSON.stringify(folded ? [...others, id] : others));
  } catch {
    // Not remembered; the section still folds.
  }
}

export function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  const [open, setOpen] = useState(() => !readFolded().includes(id));
  const bodyId = `${useId()}-body`;
  const toggle = () => {
    setOpen(!open);
    rememberFolded(id, open);
  };
  return (
    <section
      aria-labelledby={`section-${id}`}
      data-testid={`section-${id}`}
      className="panel-contained rounded-lg border border-gray-300 dark:border-gray-700"
    >
      <h2 id={`section-${id}`} className="text-base font-semibold text-gray-900 dark:text-gray-100">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={toggle}
          className={
            'flex w-full cursor-pointer items-center gap-2 rounded-lg p-3 text-left focus-visible:outline-2 ' +
            'focus-visible:outline-blue-700 dark:focus-visible:outline-blue-300'
          }
        >
          <span aria-hidden="true" className={`text-xs text-gray-700 transition-transform dark:text-gray-300 ${open ? 'rotate-90' : ''}`}>
            ▶
          </span>
          {title}
        </button>
      </h2>
      <div id={bodyId} hidden={!open} className="flex flex-col gap-3 px-3 pb-3">
        {children}
      </div>
    </section>
  );
}
