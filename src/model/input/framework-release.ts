// training.frameworkRelease: the framework release a run used, so that the engine can apply
// what that release's code keeps in memory (memory/moe-permutation.ts). Only Megatron-LM's
// releases are modeled: its tags core_v0.6.0 (and the release branches core_r0.6.0), also
// written v0.6.0 or 0.6.0. Absent or null: the newest behaviour the engine models.

import { describe, own, type FieldReader, type JsonObject } from './fields.ts';
import type { Framework, MoeDispatcher } from './types.ts';

/** A Megatron-Core version: [major, minor, patch]. */
export type CoreVersion = readonly [number, number, number];

/** core_v0.6.0, core_r0.6.0, v0.6.0, 0.6.0, 0.6 (patch 0), with an optional rc suffix (core_v0.12.0rc3). */
const RELEASE_TAG = /^(?:core_[vr]|v)?(\d{1,3})\.(\d{1,3})(?:\.(\d{1,3}))?(?:rc\d{1,3})?$/;

/** The Megatron-Core version a release tag names, or null for text that is not one. */
export function megatronCoreVersion(text: string): CoreVersion | null {
  const match = RELEASE_TAG.exec(text.trim());
  if (!match) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

/** a is older than b. */
export function olderThan(a: CoreVersion, b: CoreVersion): boolean {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
}

const EXAMPLES = '"core_v0.6.0", "core_r0.6.0", "v0.6.0" or "0.6.0"';

/** Reads training.frameworkRelease: null when absent; the text as written (trimmed) when it names a release of the framework. */
export function readFrameworkRelease(r: FieldReader, t: JsonObject, framework: Framework): string | null {
  const value = own(t, 'frameworkRelease');
  if (value === undefined || value === null) return null;
  const path = 'training.frameworkRelease';
  if (typeof value !== 'string') {
    r.error(path, `must be a Megatron-LM release tag as text, such as ${EXAMPLES}, got ${describe(value)}`);
    return null;
  }
  const text = value.trim();
  if (text === '') return null;
  if (framework !== 'megatron') {
    r.error(path, `the engine models the releases of Megatron-LM only (training.framework "megatron"), not of "${framework}"`);
    return null;
  }
  if (megatronCoreVersion(text) === null) {
    r.error(path, `${describe(value)} is not a Megatron-LM release tag: write it as ${EXAMPLES}`);
    return null;
  }
  return text;
}

/**
 * The dispatcher a Megatron-LM release runs when the launch names none: --moe-token-dispatcher-type
 * defaults to "allgather" in megatron/training/arguments.py at core_v0.6.0, core_v0.7.0, core_v0.12.0
 * and core_v0.13.0 (transformer_config.py moe_token_dispatcher_type = "allgather" too). Without a
 * stated release the profile's default stands (input/frameworks.ts: "alltoall", as Megatron-Bridge
 * recipes set it).
 */
export function releaseDefaultDispatcher(release: string | null, profileDefault: MoeDispatcher): MoeDispatcher {
  return release === null ? profileDefault : 'allgather';
}
