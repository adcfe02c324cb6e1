// A command's words as flags: the launcher's own (torchrun, deepspeed, python -m …)
// before the training script, the script, and the script's flags after it. `--a=1` and
// `--a 1` read the same; a flag takes the words after it up to the next flag (argparse's
// nargs, e.g. --recompute-modules core_attn mlp), a switch takes none.

export interface ParsedFlag {
  /** As written, without any `=value`: "--num-layers". */
  readonly name: string;
  readonly values: readonly string[];
}

export interface ParsedCommand {
  readonly launcher: readonly ParsedFlag[];
  readonly script: string | null;
  readonly flags: readonly ParsedFlag[];
}

/** A flag name: dashes, then a letter (so "-1" and "--" are values). */
const FLAG = /^--?[A-Za-z]/;

export function flagsOf(words: readonly string[]): ParsedFlag[] {
  const out: ParsedFlag[] = [];
  for (const word of words) {
    if (FLAG.test(word)) {
      const eq = word.indexOf('=');
      out.push(eq > 0 ? { name: word.slice(0, eq), values: [word.slice(eq + 1)] } : { name: word, values: [] });
    } else {
      const last = out[out.length - 1];
      if (last) out[out.length - 1] = { name: last.name, values: [...last.values, word] };
    }
  }
  return out;
}

/** Splits a launch command at its training script (the first word ending in .py, or `-m module`'s module). */
export function parseCommand(words: readonly string[]): ParsedCommand {
  const at = words.findIndex((w, i) => /\.py$/.test(w) || (words[i - 1] === '-m' && i > 0));
  if (at < 0) return { launcher: [], script: null, flags: flagsOf(words) };
  const before = words.slice(0, at).filter((w, i, all) => !(w === '-m' && i === all.length - 1));
  return { launcher: flagsOf(before.slice(1)), script: words[at] ?? null, flags: flagsOf(words.slice(at + 1)) };
}
