// Leave-one-model-family-out for the MoE throughput (issue 32): each model family's MoE
// rows predicted by the constant fitted on the other families' rows alone. What the MoE
// terms fit is one constant, MOE_TIME.eagerOpHostSeconds (time/moe-host.ts), refitted here
// over a grid; the others stay as calibration.ts has them (fitted on every row), so this
// measures how far the host-floor fit carries to a family it never saw.

import { quantile } from './validate.ts';

/** The model families the held-out block names, matched in a case's id and model name. */
export const MOE_FAMILIES: readonly { readonly family: string; readonly pattern: RegExp }[] = [
  { family: 'Qwen3', pattern: /qwen/i },
  { family: 'DeepSeek', pattern: /deepseek/i },
  { family: 'GPT-OSS', pattern: /gpt-oss/i },
  { family: 'Moonlight', pattern: /moonlight/i },
  { family: 'Mixtral', pattern: /mixtral/i },
  { family: 'Llama 4', pattern: /llama[- ]?4|scout|maverick/i },
  { family: 'Kimi', pattern: /kimi/i },
];

/** The family of a case from its id and model name; "other" when none matches. */
export function moeFamily(text: string): string {
  return MOE_FAMILIES.find((f) => f.pattern.test(text))?.family ?? 'other';
}

/** Host seconds per eager operator tried by the held-out fit: 2 to 32 µs, about 25 % apart. */
export const LOFO_HOST_SECONDS_GRID: readonly number[] = [2, 2.5, 3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 32].map((x) => x * 1e-6);

/** The loss the MoE fit minimises (scripts/calibrate.ts): median |error| / 8 % + p90 / 20 %. */
export function fitLoss(errors: readonly number[]): number {
  const absolute = errors.map(Math.abs).sort((a, b) => a - b);
  return quantile(absolute, 0.5) / 0.08 + quantile(absolute, 0.9) / 0.2;
}

export interface LofoRow {
  readonly family: string;
  readonly errorsByGrid: readonly number[];
}

/**
 * For each family: the grid value that fits the other families best, and the held-out
 * family's errors at it. `rows[i].errorsByGrid[j]` is row i's relative error at grid value j.
 */
export function leaveOneFamilyOut(rows: readonly LofoRow[]): { family: string; chosen: number; errors: number[] }[] {
  const families = [...new Set(rows.map((r) => r.family))].sort();
  return families.map((family) => {
    const train = rows.filter((r) => r.family !== family);
    let chosen = 0;
    let best = Number.POSITIVE_INFINITY;
    LOFO_HOST_SECONDS_GRID.forEach((_, j) => {
      const loss = fitLoss(train.map((r) => r.errorsByGrid[j] ?? 0));
      if (loss < best) {
        best = loss;
        chosen = j;
      }
    });
    return { family, chosen, errors: rows.filter((r) => r.family === family).map((r) => r.errorsByGrid[chosen] ?? 0) };
  });
}
