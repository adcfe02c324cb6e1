import { describe, expect, it } from 'vitest';
import { calibration, DP_OVERLAP, FITTED_CALIBRATION, MOE_TIME, TIME_CALIBRATION, withCalibration } from '../calibration.ts';
import { exposedDataParallelSeconds } from './step.ts';
import { sustainedPeakFlopsPerSecond } from './compute.ts';
import { findGpuPreset } from '../input/index.ts';

describe('calibration constants', () => {
  it('are frozen to the last nested record: assigning throws in strict mode', () => {
    expect(Object.isFrozen(FITTED_CALIBRATION)).toBe(true);
    expect(Object.isFrozen(TIME_CALIBRATION.matmulEfficiencyCeiling)).toBe(true);
    expect(() => {
      (MOE_TIME as { eagerOpHostSeconds: number }).eagerOpHostSeconds = 1;
    }).toThrow(TypeError);
    expect(MOE_TIME.eagerOpHostSeconds).toBe(FITTED_CALIBRATION.moe.eagerOpHostSeconds);
  });

  it('a fit passes a new object for the length of a call, and the fitted one is back after it, even when the call throws', () => {
    // exposedDataParallelSeconds = max(dp × minimumExposedFraction, dp − window × overlapEfficiency): 10 s of sync, no window.
    const refit = { ...FITTED_CALIBRATION, dpOverlap: { ...DP_OVERLAP, minimumExposedFraction: 0.5 } };
    expect(withCalibration(refit, () => exposedDataParallelSeconds(10, 0, 1, 0))).toBe(10);
    expect(withCalibration(refit, () => exposedDataParallelSeconds(10, 20, 1, 0))).toBe(5);
    expect(exposedDataParallelSeconds(10, 20, 1, 0)).toBeCloseTo(10 * DP_OVERLAP.minimumExposedFraction, 12);
    expect(() =>
      withCalibration(refit, () => {
        throw new Error('fit failed');
      }),
    ).toThrow('fit failed');
    expect(calibration()).toBe(FITTED_CALIBRATION);
  });

  it('the engine reads the time constants of the calibration in force (power knee: peak / (1 + TFLOP/s per W / knee))', () => {
    const h100 = findGpuPreset('h100-sxm');
    if (!h100) throw new Error('h100-sxm preset');
    const knee = 1e9; // no power capping: the sustained rate is the dense peak, 989 TFLOP/s
    const noCap = { ...FITTED_CALIBRATION, time: { ...TIME_CALIBRATION, powerKneeTflopsPerWatt: knee } };
    expect(withCalibration(noCap, () => sustainedPeakFlopsPerSecond(h100, 'bf16'))).toBeCloseTo(989e12 / (1 + 989 / 700 / knee), 0);
    expect(sustainedPeakFlopsPerSecond(h100, 'bf16')).toBeLessThan(989e12 * 0.7);
  });
});
