// The building blocks of every control: a visible label, the value, the engine's
// error for the field in the field's words, and the one-line why, formula and source
// behind one keyboard-usable <details>.

import { memo, useEffect, useRef, useState, type ReactNode } from 'react';
import { fieldName, getAt, type FieldPath } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import type { Help } from '../help.ts';
import { fieldMessage, parseQuantity } from '../../model/input/index.ts';
import { messageInWords } from '../errorWords.ts';

export const INPUT =
  'w-full rounded border border-gray-400 bg-white px-2 py-1 text-sm text-gray-900 tabular-nums ' +
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-700 ' +
  'aria-invalid:border-red-700 dark:border-gray-500 dark:bg-gray-900 dark:text-gray-100 ' +
  'dark:focus-visible:outline-blue-300 dark:aria-invalid:border-red-400 disabled:opacity-70';
export const HINT = 'text-xs text-gray-700 dark:text-gray-300';
export const ERROR_TEXT = 'text-xs font-medium text-red-700 dark:text-red-300';

/** The engine's error for this field (`parallel.tp: …`), or null. */
export function useFieldError(path: FieldPath | null): string | null {
  const errors = usePlanner((s) => s.errors);
  if (!path) return null;
  const name = fieldName(path);
  return errors.find((e) => fieldMessage(e).path === name) ?? null;
}

export function controlId(path: FieldPath | string): string {
  return `ctl-${typeof path === 'string' ? path : path.join('-')}`;
}

export function describedBy(id: string, error: string | null): string {
  return error ? `${id}-hint ${id}-error` : `${id}-hint`;
}

/**
 * The one disclosure of a control: its one-line why (the control's description, `hintId`), formula and source.
 * Memoized: a help text is a constant, so the controls' frequent re-renders skip it.
 */
export const HelpDetails = memo(function HelpDetails({ help, hintId }: { help: Help; hintId?: string }) {
  const more = Boolean(help.formula || help.source);
  if (!more && !hintId) return null;
  return (
    <details className="text-xs text-gray-700 dark:text-gray-300">
      <summary
        className={
          'w-fit cursor-pointer rounded text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 ' +
          'focus-visible:outline-blue-700 dark:text-blue-300'
        }
      >
        {more ? 'Why, formula and source' : 'Why'}
        <span className="sr-only"> for {help.label}</span>
      </summary>
      {hintId && (
        <p id={hintId} className="mt-1">
          {help.explain}
        </p>
      )}
      {help.formula && <p className="mt-1 font-mono">{help.formula}</p>}
      {help.source && <p className="mt-1">Source: {help.source}</p>}
    </details>
  );
});

/** The engine's error for the field, in the field's words (`${id}-error`, for the control's aria-describedby); nothing when none. */
function FieldError({ id, error, label }: { id: string; error: string | null; label: string }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} className={ERROR_TEXT}>
      {messageInWords(error, label)}
    </p>
  );
}

/** Label on top (the value right of it), control, offered values, error; the why, formula and source behind one disclosure. */
export function FieldShell(props: {
  id: string;
  help: Help;
  error: string | null;
  aside?: ReactNode;
  children: ReactNode;
  extra?: ReactNode;
}) {
  const { id, help, error, aside, children, extra } = props;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-gray-900 dark:text-gray-100">
          {help.label}
        </label>
        {aside}
      </div>
      {children}
      {extra}
      <FieldError id={id} error={error} label={help.label} />
      <HelpDetails help={help} hintId={`${id}-hint`} />
    </div>
  );
}

/**
 * A number as typed ("4,096", "1.5e13", "15T": the engine's one reader, model/input/quantity.ts); text that is
 * not a number is kept as text so the engine names the field in its error.
 */
export function parseNumberText(text: string, optional: boolean): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return optional ? undefined : '';
  return parseQuantity(trimmed) ?? trimmed;
}

/** How long a field that commits on Enter waits after the last keystroke before it commits on its own. */
export const COMMIT_PAUSE_MS = 700;

export function showNumber(value: unknown): string {
  if (typeof value === 'number') return Math.abs(value) >= 1e7 ? value.toExponential().replace('e+', 'e') : String(value);
  return typeof value === 'string' ? value : '';
}

/** A number input bound to one field of the document. */
export function NumberField(props: {
  path: FieldPath;
  help: Help;
  optional?: boolean;
  placeholder?: string;
  onCommit?: (value: unknown) => void;
  /** Commit on Enter or leaving the field, not per keystroke (for a value whose every step rearranges others). */
  commitOnBlur?: boolean;
  /** The value in words beside the label ("524 billion tokens"), for numbers too long to read at a glance in the box. */
  readable?: (value: number) => string;
  /** A warning under the field (a plausible but unusual value), or null. */
  warning?: string | null;
}) {
  const { path, help, optional = false, placeholder, onCommit, commitOnBlur = false, readable, warning = null } = props;
  const store = usePlannerStore();
  const value = usePlanner((s) => getAt(s.document, path));
  const error = useFieldError(path);
  const [draft, setDraft] = useState<string | null>(null);
  const id = controlId(path);
  const commit = onCommit ?? ((v: unknown) => store.getState().setField(path, v));
  const paused = usePauseCommit(commitOnBlur ? draft : null, (text) => {
    commit(parseNumberText(text, optional));
    setDraft(null);
  });
  const words = readable && typeof value === 'number' && Number.isFinite(value) && !error ? readable(value) : null;
  const aside = words && (
    <span data-testid={`${id}-words`} className="text-xs text-gray-700 tabular-nums dark:text-gray-300">
      {words}
    </span>
  );
  return (
    <FieldShell
      id={id}
      help={help}
      error={error}
      aside={aside}
      extra={
        warning && !error ? (
          <p data-testid={`${id}-warning`} className="text-xs text-amber-900 dark:text-amber-200">
            {warning}
          </p>
        ) : undefined
      }
    >
      <input
        id={id}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        spellCheck={false}
        className={INPUT}
        value={draft ?? showNumber(value)}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
        onChange={(e) => {
          setDraft(e.target.value);
          if (!commitOnBlur) commit(parseNumberText(e.target.value, optional));
        }}
        onKeyDown={(e) => {
          if (commitOnBlur && e.key === 'Enter' && draft !== null) {
            paused.cancel();
            commit(parseNumberText(draft, optional));
            // Committed: leaving the field later (to click the note's Undo, say) must not commit the same text again.
            setDraft(null);
          }
        }}
        onBlur={() => {
          paused.cancel();
          if (commitOnBlur && draft !== null) commit(parseNumberText(draft, optional));
          setDraft(null);
        }}
      />
    </FieldShell>
  );
}

/**
 * Commits a draft once typing pauses for COMMIT_PAUSE_MS (typing "48" and waiting applies 48, as Enter would);
 * every keystroke restarts the wait, and Enter or leaving the field cancels it (they commit themselves).
 */
function usePauseCommit(draft: string | null, commit: (text: string) => void): { cancel: () => void } {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(commit);
  latest.current = commit;
  const cancel = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => {
    if (draft === null) return undefined;
    timer.current = setTimeout(() => {
      timer.current = null;
      latest.current(draft);
    }, COMMIT_PAUSE_MS);
    return () => {
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = null;
    };
  }, [draft]);
  return { cancel };
}

export function TextField(props: { path: FieldPath; help: Help; placeholder?: string | undefined }) {
  const { path, help, placeholder } = props;
  const store = usePlannerStore();
  const value = usePlanner((s) => getAt(s.document, path));
  const error = useFieldError(path);
  const id = controlId(path);
  return (
    <FieldShell id={id} help={help} error={error}>
      <input
        id={id}
        type="text"
        className={INPUT}
        value={typeof value === 'string' ? value : ''}
        placeholder={placeholder}
        maxLength={200}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
        onChange={(e) => store.getState().setField(path, e.target.value)}
      />
    </FieldShell>
  );
}

export interface SelectOption {
  readonly value: string;
  readonly label: string;
  readonly disabledReason?: string | null;
}

export function SelectField(props: {
  id: string;
  help: Help;
  value: string;
  options: readonly SelectOption[];
  onChange: (value: string) => void;
  errorPath?: FieldPath;
  extra?: ReactNode;
}) {
  const { id, help, value, options, onChange, errorPath, extra } = props;
  const error = useFieldError(errorPath ?? null);
  const unavailable = options.filter((o) => o.disabledReason);
  return (
    <FieldShell
      id={id}
      help={help}
      error={error}
      extra={
        <>
          {unavailable.length > 0 && (
            <p className={HINT}>Not available now: {unavailable.map((o) => `${o.label} (${o.disabledReason})`).join('; ')}.</p>
          )}
          {extra}
        </>
      }
    >
      <select
        id={id}
        className={INPUT}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
        onChange={(e) => onChange(e.target.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={Boolean(o.disabledReason) && o.value !== value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

/** A select bound to a string (or number) field of the document. */
export function ChoiceField<T extends string | number>(props: {
  path: FieldPath;
  help: Help;
  choices: readonly T[];
  labels?: Partial<Record<string, string>>;
  /** Why a choice is not offered now (shown beside the field, the option disabled), by choice. */
  disabledReasons?: Partial<Record<string, string | null>>;
  /** What the engine reads the field as when the document leaves it out (model/input ABSENT_CHOICE): "(not set: None)". */
  absent?: T;
}) {
  const { path, help, choices, labels, disabledReasons, absent } = props;
  const value = usePlanner((s) => getAt(s.document, path));
  const current = choices.find((c) => c === value);
  const options: SelectOption[] = choices.map((c) => ({
    value: String(c),
    label: labels?.[String(c)] ?? String(c),
    disabledReason: disabledReasons?.[String(c)] ?? null,
  }));
  const unset = absent === undefined ? '(not set)' : `(not set: ${labels?.[String(absent)] ?? String(absent)})`;
  if (current === undefined) options.unshift({ value: '', label: value === undefined ? unset : `${String(value)} (not valid)` });
  const write = (v: string) => choices.find((c) => String(c) === v) ?? NOT_WRITTEN;
  return <FieldSelect path={path} help={help} value={current === undefined ? '' : String(current)} options={options} write={write} />;
}

/** What FieldSelect's `write` returns when choosing an option stores nothing. */
const NOT_WRITTEN = Symbol('not written');

/**
 * A select bound to a document field (its id and error from the path): `write` turns the
 * chosen option into the field's value (undefined leaves the field out; NOT_WRITTEN keeps it).
 */
export function FieldSelect(props: {
  path: FieldPath;
  help: Help;
  value: string;
  options: readonly SelectOption[];
  write: (option: string) => unknown;
}) {
  const { path, write } = props;
  const store = usePlannerStore();
  const onChange = (v: string) => {
    const value = write(v);
    if (value !== NOT_WRITTEN) store.getState().setField(path, value);
  };
  return (
    <SelectField id={controlId(path)} help={props.help} value={props.value} options={props.options} errorPath={path} onChange={onChange} />
  );
}

export function CheckField(props: {
  path: FieldPath;
  help: Help;
  fallback: boolean;
  disabledReason?: string | null;
  onChange?: (checked: boolean) => void;
}) {
  const { path, help, fallback, disabledReason = null, onChange } = props;
  const store = usePlannerStore();
  const value = usePlanner((s) => getAt(s.document, path));
  const error = useFieldError(path);
  const id = controlId(path);
  const checked = typeof value === 'boolean' ? value : fallback;
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <input
          id={id}
          type="checkbox"
          className="size-4 accent-blue-700 dark:accent-blue-300"
          checked={checked}
          disabled={Boolean(disabledReason) && !checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${describedBy(id, error)}${disabledReason && !checked ? ` ${id}-unavailable` : ''}`}
          onChange={(e) => (onChange ? onChange(e.target.checked) : store.getState().setField(path, e.target.checked))}
        />
        <label htmlFor={id} className="text-sm font-medium text-gray-900 dark:text-gray-100">
          {help.label}
        </label>
      </div>
      {disabledReason && !checked && (
        <p id={`${id}-unavailable`} className={HINT}>
          Not available now: {disabledReason}.
        </p>
      )}
      <FieldError id={id} error={error} label={help.label} />
      <HelpDetails help={help} hintId={`${id}-hint`} />
    </div>
  );
}
