import { describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT } from '../../state/defaults.ts';
import { launchFileForDocument } from '../export/index.ts';
import { switchSpec, TRAINING_SWITCH_KEYS } from '../input/index.ts';
import { importLaunchFile } from './index.ts';

// Every on/off training field whose entry names a Megatron-LM flag (model/input/switches.ts)
// goes through the launch and back: the export writes the flag when the field is on and not
// when it is off, and the import reads the flag back as on. A new switch with a flag is
// tested here without a line of its own (docs/contributing.md, "Adding a document field").

const withSwitch = (key: string, on: boolean) => ({
  ...DEFAULT_DOCUMENT,
  training: { ...(DEFAULT_DOCUMENT['training'] as object), [key]: on },
});

function megatronText(doc: unknown): string {
  const file = launchFileForDocument(doc, 'megatron');
  if (!file.ok) throw new Error(file.errors.join('; '));
  return file.launch.text;
}

const flagged = TRAINING_SWITCH_KEYS.flatMap((key) => {
  const flag = switchSpec(key).megatronFlag;
  return flag === undefined ? [] : [[key, flag] as const];
});

describe('the switches with a Megatron-LM flag', () => {
  it('the default document launches (the loop below has a launch to read)', () => {
    expect(megatronText(DEFAULT_DOCUMENT)).toContain('pretrain_gpt.py');
  });

  for (const [key, flag] of flagged) {
    it(`training.${key}: ${flag} written when on, not when off, and read back as on`, () => {
      const on = megatronText(withSwitch(key, true));
      expect(on.split(/\s+/)).toContain(flag);
      expect(megatronText(withSwitch(key, false)).split(/\s+/)).not.toContain(flag);
      const back = importLaunchFile(on);
      expect(back.ok && (back.document['training'] as Record<string, unknown>)[key]).toBe(true);
      expect(back.warnings.join('\n')).not.toContain(flag);
    });
  }
});
