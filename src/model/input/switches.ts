// The on/off fields of `training` that the parser reads from their entry here alone: each
// entry is the field's whole description (default, label, explanation, source, and the
// Megatron-LM flag that turns it on, when there is one). TrainingConfig takes their types
// from this table (types.ts), the parser reads them (schema.ts readSwitches), the page
// draws a checkbox for each (ui/controls/MemorySection.tsx), its help text comes from here
// (ui/help.ts), and the Megatron-LM launch writes and reads their flags
// (export/megatron.ts, import/megatron.ts). A new switch is an entry here plus its
// mechanism: docs/contributing.md, "Adding a document field".
// A leaf module (it imports nothing), so that types.ts can take the types from it.

export interface SwitchSpec {
  /** What an absent or null field reads as. */
  readonly default: boolean;
  /** The control's label, with the usual abbreviation. */
  readonly label: string;
  /** One line: what turning it on does. */
  readonly explain: string;
  readonly formula?: string;
  /** Where the mechanism is described (paper, framework file and release). */
  readonly source?: string;
  /** The Megatron-LM flag that turns it on (written when on, read back as on), where Megatron-LM has one. */
  readonly megatronFlag?: string;
}

export const TRAINING_SWITCHES = {
  flashAttention: {
    default: true,
    label: 'Flash attention (FA)',
    explain: 'Fused attention that never stores the s × s score matrix.',
    source: 'Dao et al. 2022, FlashAttention (arXiv 2205.14135)',
  },
} as const satisfies Readonly<Record<string, SwitchSpec>>;

export type TrainingSwitch = keyof typeof TRAINING_SWITCHES;
/** The switches as TrainingConfig holds them, every one resolved. */
export type TrainingSwitches = { readonly [K in TrainingSwitch]: boolean };

export const TRAINING_SWITCH_KEYS = Object.keys(TRAINING_SWITCHES) as readonly TrainingSwitch[];

/** A switch's entry, typed as the spec (the table's literal types narrowed away). */
export function switchSpec(key: TrainingSwitch): SwitchSpec {
  return TRAINING_SWITCHES[key];
}
