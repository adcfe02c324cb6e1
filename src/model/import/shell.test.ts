import { describe, expect, it } from 'vitest';
import { parseCommand } from './args.ts';
import { readShell } from './shell.ts';
import { arithmetic, words } from './shell-words.ts';

// Launch scripts as people write them: the flags must come out as bash would pass them.
const launch = (script: string) => readShell(script).launches.at(-1)?.words ?? [];

describe('shell words', () => {
  it('expands $VAR, ${VAR}, ${VAR:-default} (set, unset, empty), arrays and arithmetic; keeps what it cannot know', () => {
    const vars = new Map([
      ['TP', ['8']],
      ['EMPTY', ['']],
      ['ARGS', ['--a 1', '--b']],
    ]);
    expect(words('$TP ${TP} ${PP:-4} ${EMPTY:-2} ${EMPTY-3} "${ARGS[@]}" ${ARGS[@]} $((TP*2+1)) $(hostname) ${UNSET}', vars)).toEqual([
      '8',
      '8',
      '4',
      '2',
      '--a 1',
      '--b',
      '--a',
      '1',
      '--b',
      '17',
      '$(hostname)',
      '${UNSET}',
    ]);
  });

  it('quotes: single literal, double expanded, escapes; a comment ends at its line', () => {
    expect(words(`'$TP' "x$TP y" a\\ b --c # note\n--d`, new Map([['TP', ['2']]]))).toEqual(['$TP', 'x2 y', 'a b', '--c', '--d']);
  });

  it('integer arithmetic as bash does it (division truncates), null when it cannot', () => {
    expect(arithmetic('300000000000 * 3 / 512 / 2048', new Map())).toBe(858306);
    expect(arithmetic('(2+3)*4 % 7', new Map())).toBe(6);
    expect(arithmetic('X / 0', new Map([['X', ['1']]]))).toBeNull();
    expect(arithmetic('$UNKNOWN + 1', new Map())).toBeNull();
  });
});

describe('a launch script', () => {
  it('variables, ${VAR:-default} with quotes, bash arrays with comments, += and continuations', () => {
    const script = [
      'GPUS_PER_NODE=8',
      'NNODES=${SLURM_NNODES:-"2"}',
      'TP=4',
      'MODEL_ARGS=(',
      '  --num-layers 32  # the depth',
      '  --hidden-size 4096',
      ')',
      'MODEL_ARGS+=(--swiglu)',
      'torchrun --nproc_per_node $GPUS_PER_NODE --nnodes $NNODES pretrain_gpt.py \\',
      '  ${MODEL_ARGS[@]} \\',
      '  --tensor-model-parallel-size ${TP}',
    ].join('\n');
    const command = parseCommand(launch(script));
    expect(command.script).toBe('pretrain_gpt.py');
    expect(command.launcher).toEqual([
      { name: '--nproc_per_node', values: ['8'] },
      { name: '--nnodes', values: ['2'] },
    ]);
    expect(command.flags.map((f) => [f.name, ...f.values])).toEqual([
      ['--num-layers', '32'],
      ['--hidden-size', '4096'],
      ['--swiglu'],
      ['--tensor-model-parallel-size', '4'],
    ]);
  });

  it('string variables built up over several lines, if/else on known values, eval of a command variable', () => {
    const script = [
      'CKPT="true"',
      'opts=" \\',
      '  --num-layers 2 \\',
      '  --fp16"',
      'if [ "${CKPT}" = "true" ]; then',
      'opts="${opts} --checkpoint-activations"',
      'else',
      'opts="${opts} --never"',
      'fi',
      'run_cmd="deepspeed pretrain_gpt.py ${opts}"',
      'echo ${run_cmd}',
      'eval ${run_cmd}',
    ].join('\n');
    expect(launch(script)).toEqual(['deepspeed', 'pretrain_gpt.py', '--num-layers', '2', '--fp16', '--checkpoint-activations']);
    expect(readShell(script).launches).toHaveLength(1);
  });

  it("here-documents: <<EOT expands variables, <<'EOF' does not; the body's first line is named", () => {
    const script = 'BATCH=32\ncat <<EOT > a.json\n{"train_batch_size": $BATCH}\nEOT\ncat > b.json <<\'EOF\'\n{"x": "$BATCH"}\nEOF\n';
    expect(readShell(script).hereDocuments).toEqual([
      { line: 3, body: '{"train_batch_size": 32}' },
      { line: 6, body: '{"x": "$BATCH"}' },
    ]);
  });

  it('--flag=value reads as --flag value; a flag takes every word up to the next flag', () => {
    expect(parseCommand(['python', 'train.py', '--zero-stage=2', '--recompute-modules', 'core_attn', 'mlp', '--bf16']).flags).toEqual([
      { name: '--zero-stage', values: ['2'] },
      { name: '--recompute-modules', values: ['core_attn', 'mlp'] },
      { name: '--bf16', values: [] },
    ]);
  });
});
