// sweep/: "what does this knob trade?". One knob across its values with everything else
// fixed (knobs.ts: the values and the fields each sets; sweep.ts: the engine's whole
// answer at each value), for the trade-off curves of the page and `npm run sweep`.
// This file is the wing's one public entry: code outside the wing imports from here.

export { type KnobContext, KNOBS, SWEEP_KNOBS, type SweepKnob, type SweepValue } from './knobs.ts';
export { emptySweep, type Held, type HeldQuantity, type SeqLenHold, sweepDocument, type SweepResult } from './sweep.ts';
