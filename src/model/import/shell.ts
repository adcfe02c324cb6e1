// A launch script read the way a person reads it: variables set (NAME=…, NAME+=…,
// export, arrays NAME=( … ) over several lines), line continuations, here-documents
// (cat <<EOF … EOF, the way Megatron-DeepSpeed writes its ds_config.json), simple
// if/else on values the file sets ([ "$A" = x ], [[ $N -gt 1 ]]; an if it cannot decide
// runs every branch), eval of a variable, and the command that starts training: the
// last one that runs a Python script (torchrun, deepspeed, python, srun … *.py). Not a
// shell: nothing runs, nothing is read from the environment. Pure; never throws.
// Why not a library: shell-quote (the well-kept word splitter) splits one command line but
// keeps no variables across lines, expands no ${VAR:-default}, arrays, $(( … )) or
// here-documents, and knows no if/else; launch scripts lean on all of them, so this reader
// stays (TOML and YAML, which libraries cover, go through smol-toml and yaml).

import { words } from './shell-words.ts';

export interface ShellCommand {
  readonly words: readonly string[];
  /** 1-based line where the command starts. */
  readonly line: number;
}

export interface HereDocument {
  readonly body: string;
  /** 1-based line of the first body line. */
  readonly line: number;
}

export interface ShellScript {
  /** Commands that run a Python script, in order. */
  readonly launches: readonly ShellCommand[];
  readonly hereDocuments: readonly HereDocument[];
  /** Every word of every command, for files that are bare argument lists. */
  readonly allWords: readonly string[];
}

interface Logical {
  readonly text: string;
  readonly line: number;
}

const MAX_EVAL_DEPTH = 2;
const LAUNCHER = /(^|\/)(torchrun|deepspeed|python[\d.]*|srun|mpirun|accelerate)$|\.py$/;
const KEYWORDS = new Set(['then', 'do', 'done', 'else', 'fi', '{', '}', 'time', 'exec', 'nohup', 'env']);

/** Quotes and brackets still open at the end of `text` (a statement then goes on to the next line). */
function isOpen(text: string): boolean {
  let quote: string | null = null;
  let parens = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\' && quote === '"') i += 1;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '\\') i += 1;
    else if (ch === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      const end = text.indexOf('\n', i);
      if (end < 0) break;
      i = end;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') parens += 1;
    else if (ch === ')') parens = Math.max(0, parens - 1);
  }
  return quote !== null || parens > 0;
}

/** Lines joined where a backslash, an open quote or an open array carries on; here-document bodies taken out. */
function logicalLines(
  text: string,
  docs: { delimiter: string; strip: boolean; expand: boolean; line: number; body: string[] }[],
): Logical[] {
  const lines = text.split(/\r?\n/);
  const out: Logical[] = [];
  let pending: { parts: string[]; line: number } | null = null;
  const queued: typeof docs = [];
  for (let i = 0; i < lines.length; i += 1) {
    const raw = lines[i] ?? '';
    const doc = queued[0];
    if (doc) {
      const candidate = doc.strip ? raw.replace(/^\t+/, '') : raw;
      if (candidate.trim() === doc.delimiter) queued.shift();
      else doc.body.push(candidate);
      continue;
    }
    for (const m of raw.matchAll(/<<(-?)\s*(['"]?)([A-Za-z_][\w]*)\2/g)) {
      const entry = { delimiter: m[3] ?? '', strip: m[1] === '-', expand: m[2] === '', line: i + 2, body: [] };
      queued.push(entry);
      docs.push(entry);
    }
    const continued = /(^|[^\\])(\\\\)*\\$/.test(raw);
    const piece = continued ? raw.slice(0, -1) : raw;
    pending = pending ? { parts: [...pending.parts, piece], line: pending.line } : { parts: [piece], line: i + 1 };
    const joined = pending.parts.join(continued ? '' : '\n');
    if (continued || (isOpen(pending.parts.join('\n')) && i < lines.length - 1)) continue;
    out.push({ text: joined, line: pending.line });
    pending = null;
  }
  return out;
}

/** Splits a line at unquoted ; && || | (and &), outside brackets, with its comments taken out. */
function statements(text: string): string[] {
  const out: string[] = [];
  let quote: string | null = null;
  let depth = 0;
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] ?? '';
    if (quote) {
      if (ch === '\\' && quote === '"') {
        current += ch + (text[i + 1] ?? '');
        i += 1;
        continue;
      }
      if (ch === quote) quote = null;
      current += ch;
      continue;
    }
    if (ch === '\\') {
      current += ch + (text[i + 1] ?? '');
      i += 1;
      continue;
    }
    if (ch === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      const end = text.indexOf('\n', i);
      if (end < 0) break;
      i = end - 1;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(' || ch === '{') depth += 1;
    else if (ch === ')' || ch === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (ch === ';' || ch === '|' || ch === '&')) {
      out.push(current);
      current = '';
      while (text[i + 1] === '|' || text[i + 1] === '&' || text[i + 1] === ';') i += 1;
      continue;
    }
    current += ch;
  }
  out.push(current);
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

/** [ A op B ] or [[ … ]] with values the file knows: true, false, or null when it cannot tell. */
function condition(test: readonly string[]): boolean | null {
  const inner =
    test[0] === '[' || test[0] === '[['
      ? test.slice(1, test[test.length - 1] === ']' || test[test.length - 1] === ']]' ? -1 : undefined)
      : null;
  if (!inner) return null;
  if (inner.some((w) => w.includes('$'))) return null;
  const [a, op, b] = inner;
  if (inner.length === 2 && (a === '-z' || a === '-n')) return a === '-z' ? op === '' : op !== '';
  if (inner.length !== 3 || a === undefined || op === undefined || b === undefined) return null;
  const x = Number(a);
  const y = Number(b);
  switch (op) {
    case '=':
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '-eq':
      return x === y;
    case '-ne':
      return x !== y;
    case '-gt':
      return x > y;
    case '-lt':
      return x < y;
    case '-ge':
      return x >= y;
    case '-le':
      return x <= y;
    default:
      return null;
  }
}

/** Reads a script; see the opening comment. */
export function readShell(text: string): ShellScript {
  const vars = new Map<string, string[]>();
  const docs: { delimiter: string; strip: boolean; expand: boolean; line: number; body: string[] }[] = [];
  const launches: ShellCommand[] = [];
  const allWords: string[] = [];
  // if/elif/else: whether the branch runs (true, false, or null = unknown, run it).
  const branches: { taken: boolean; running: boolean | null; outer: boolean }[] = [];
  const running = () => branches.every((b) => b.running !== false);
  const docText = new Map<number, string>();

  const run = (statement: string, line: number, depth: number): void => {
    // An assignment's value is expanded but not split; NAME=( … ) is an array of words.
    const assignment = /^(?:(?:export|local|declare(?:\s+-\w+)*|readonly)\s+)?([A-Za-z_]\w*)(\+?)=([\s\S]*)$/.exec(statement);
    if (assignment) {
      if (!running()) return;
      const [, name = '', append = '', value = ''] = assignment;
      if (value.startsWith('(')) {
        const close = value.lastIndexOf(')');
        const items = words(value.slice(1, close < 0 ? undefined : close), vars);
        vars.set(name, append ? [...(vars.get(name) ?? []), ...items] : items);
      } else {
        const expanded = words(value, vars).join(' ');
        vars.set(name, [append ? `${vars.get(name)?.join(' ') ?? ''}${expanded}` : expanded]);
      }
      return;
    }
    let w = words(statement, vars);
    const head = w[0];
    if (head === 'if' || head === 'elif') {
      const verdict = condition(w.slice(1));
      if (head === 'if') branches.push({ taken: verdict === true, running: verdict, outer: running() });
      else {
        const b = branches[branches.length - 1];
        if (b) {
          b.running = b.taken ? false : verdict;
          b.taken ||= verdict === true;
        }
      }
      return;
    }
    if (head === 'else') {
      const b = branches[branches.length - 1];
      if (b) b.running = b.taken ? false : b.running === null ? null : true;
      w = w.slice(1);
    }
    if (head === 'fi') {
      branches.pop();
      return;
    }
    if (!running()) return;
    while (w[0] !== undefined && KEYWORDS.has(w[0])) w = w.slice(1);
    if (w.length === 0 || w[0] === 'echo' || w[0] === 'printf') return;
    if (w[0] === 'eval' && depth < MAX_EVAL_DEPTH) {
      for (const s of statements(w.slice(1).join(' '))) run(s, line, depth + 1);
      return;
    }
    allWords.push(...w);
    if (w.some((x) => LAUNCHER.test(x))) launches.push({ words: w, line });
  };

  for (const logical of logicalLines(text, docs)) {
    for (const s of statements(logical.text)) run(s, logical.line, 0);
    for (const d of docs)
      if (!docText.has(d.line) && d.line <= logical.line + 1)
        docText.set(
          d.line,
          d.expand ? d.body.map((l) => words(`"${l.replace(/"/g, '\\"')}"`, vars).join(' ')).join('\n') : d.body.join('\n'),
        );
  }
  for (const d of docs) if (!docText.has(d.line)) docText.set(d.line, d.body.join('\n'));
  const hereDocuments = [...docText].map(([line, body]) => ({ line, body }));
  return { launches, hereDocuments, allWords };
}
