// Launch arguments: the plan's layout written for the framework that will run it:
// Megatron-LM command-line flags, a DeepSpeed config file, a torchtitan job config.
// Pure formatting of a RunConfig; docs/launch-args.md tables the mapping and what
// each framework cannot express (each export also says so in its comments).

import { frameworkProfile, parseDocument } from '../input/index.ts';
import type { LaunchExport, LaunchFile, LaunchTarget } from './common.ts';
import { deepspeedExport } from './deepspeed.ts';
import { megatronExport } from './megatron.ts';
import { torchtitanExport } from './torchtitan.ts';
import type { RunConfig } from '../input/index.ts';

export type { LaunchExport, LaunchFile, LaunchTarget } from './common.ts';
export { deepspeedExport, megatronExport, torchtitanExport };

/** Every export, in the order the page shows them: the document's framework's own launch target first (its profile's). */
export function launchExports(c: RunConfig): readonly LaunchExport[] {
  const all = [megatronExport(c), deepspeedExport(c), torchtitanExport(c)];
  const first = defaultLaunchTarget(c);
  return [...all.filter((e) => e.target === first), ...all.filter((e) => e.target !== first)];
}

export type LaunchExportsResult =
  { readonly ok: true; readonly exports: readonly LaunchExport[] } | { readonly ok: false; readonly errors: readonly string[] };

/** launchExports for an untrusted interchange document: its errors come back as values. */
export function launchExportsForDocument(raw: unknown): LaunchExportsResult {
  const parsed = parseDocument(raw);
  return parsed.ok ? { ok: true, exports: launchExports(parsed.config) } : { ok: false, errors: parsed.errors };
}

export const LAUNCH_TARGETS: readonly LaunchTarget[] = ['megatron', 'torchtitan', 'deepspeed'];

/** The framework a document's stack names, as a launch target: its profile's (input/frameworks.ts launchTarget). */
export function defaultLaunchTarget(c: RunConfig): LaunchTarget {
  return frameworkProfile(c.stack.framework).launchTarget;
}

export type LaunchFileResult =
  | { readonly ok: true; readonly target: LaunchTarget; readonly launch: LaunchFile; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly errors: readonly string[] };

/**
 * The launch file of one framework for an untrusted document: what `npm run launch` prints
 * and what the page's launch panel shows (both call this). No target: the document's framework.
 */
export function launchFileForDocument(raw: unknown, target?: LaunchTarget): LaunchFileResult {
  const parsed = parseDocument(raw);
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  const chosen = target ?? defaultLaunchTarget(parsed.config);
  const exporters: Readonly<Record<LaunchTarget, (c: RunConfig) => LaunchExport>> = {
    megatron: megatronExport,
    torchtitan: torchtitanExport,
    deepspeed: deepspeedExport,
  };
  return { ok: true, target: chosen, launch: exporters[chosen](parsed.config).launch, warnings: parsed.warnings };
}
