// Memory savers: what trades speed or host memory for GPU memory. ZeRO sharding,
// activation recomputation, flash attention (with every on/off field of the switch
// table, model/input/switches.ts), and offload of optimizer states, weights and saved
// activations to the host.

import { ABSENT_CHOICE, RECOMPUTES, TRAINING_SWITCH_KEYS, TRAINING_SWITCHES, ZERO_STAGES } from '../../model/input/index.ts';
import { getAt, pathUnder } from '../../state/doc.ts';
import { usePlanner } from '../../state/react.ts';
import { HELP } from '../help.ts';
import { CheckField, ChoiceField, NumberField } from './fields.tsx';
import { Section } from './Section.tsx';
import { ZeroNote } from './ZeroNote.tsx';

const ZERO_LABELS = { '0': '0: off', '1': '1: optimizer states', '2': '2: + gradients', '3': '3: + weights (FSDP)' };

export function MemorySection() {
  const zero = usePlanner((s) => getAt(s.document, ['parallel', 'zero']));
  return (
    <Section title="Memory savers" id="memory">
      <ChoiceField
        path={['parallel', 'zero']}
        help={HELP.zero}
        choices={ZERO_STAGES}
        labels={ZERO_LABELS}
        absent={ABSENT_CHOICE['parallel.zero']}
      />
      <ZeroNote />
      <ChoiceField
        path={['training', 'recompute']}
        help={HELP.recompute}
        choices={RECOMPUTES}
        labels={{ none: 'None', selective: 'Selective (attention)', full: 'Full (every layer)' }}
        absent={ABSENT_CHOICE['training.recompute']}
      />
      {TRAINING_SWITCH_KEYS.map((key) => (
        <CheckField key={key} path={pathUnder('training', key)} help={HELP[key]} fallback={TRAINING_SWITCHES[key].default} />
      ))}
      <CheckField path={['training', 'offload', 'optimizer']} help={HELP.offloadOptimizer} fallback={false} />
      <CheckField
        path={['training', 'offload', 'parameters']}
        help={HELP.offloadParameters}
        fallback={false}
        disabledReason={zero === 3 ? null : 'parameter offload needs ZeRO stage 3'}
      />
      <NumberField
        path={['training', 'activationOffloadLayers']}
        optional
        placeholder="0"
        help={{ label: 'Offloaded layers per stage', explain: 'Layers per pipeline stage whose saved activations go to host memory.' }}
      />
    </Section>
  );
}
