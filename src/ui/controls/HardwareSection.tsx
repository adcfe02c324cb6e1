// The cluster: the GPU preset's picker (shown in the run's frame), custom GPU figures, GPUs per node.

import { GPU_PRESETS, defaultHostMemoryGBps, defaultHostMemoryGiB, findGpuPreset } from '../../state/catalog.ts';
import { getAt, isPlainObject, pathUnder, type KeyOf } from '../../state/doc.ts';
import { usePlanner, usePlannerStore } from '../../state/react.ts';
import { HELP, type HelpKey } from '../help.ts';
import { HINT, NumberField, SelectField, TextField } from './fields.tsx';
import { Section } from './Section.tsx';

const CUSTOM = 'custom';
/** Each custom GPU figure, in the form's order, and whether it may be left empty (the engine then derives it or goes without). */
const GPU_FIGURES: readonly { readonly key: HelpKey & KeyOf<'cluster.gpu'>; readonly optional: boolean }[] = [
  { key: 'memoryGiB', optional: false },
  { key: 'bf16Tflops', optional: false },
  { key: 'fp8Tflops', optional: true },
  { key: 'fp32Tflops', optional: true },
  { key: 'fp4Tflops', optional: true },
  { key: 'expTeraOpsPerSecond', optional: true },
  { key: 'hbmGBps', optional: false },
  { key: 'intraNodeGBps', optional: false },
  { key: 'interNodeGBps', optional: false },
  { key: 'tdpWatts', optional: true },
  { key: 'usdPerHour', optional: true },
];

/** The GPU type; it opens the controls in the run's frame (FrameSection). */
export function GpuPicker() {
  const store = usePlannerStore();
  const gpu = usePlanner((s) => getAt(s.document, ['cluster', 'gpu']));
  const preset = typeof gpu === 'string' ? findGpuPreset(gpu) : undefined;
  const value = preset?.id ?? CUSTOM;
  const options = [...GPU_PRESETS.map((g) => ({ value: g.id, label: g.name })), { value: CUSTOM, label: 'Custom GPU (edit the figures)' }];
  return (
    <SelectField
      id="ctl-cluster-gpu"
      help={HELP.gpuPreset}
      value={value}
      options={options}
      errorPath={['cluster', 'gpu']}
      onChange={(id) => store.getState().setGpuPreset(id)}
      extra={
        preset && (
          <>
            <p className={HINT}>
              {preset.memoryGiB} GiB, {preset.bf16Tflops} BF16 TFLOP/s dense, {preset.hbmGBps.toLocaleString('en-US')} GB/s HBM,{' '}
              {preset.intraNodeGBps} GB/s intra-node, {preset.interNodeGBps} GB/s inter-node, {preset.tdpWatts} W
            </p>
            <details className={HINT}>
              <summary className="w-fit cursor-pointer text-blue-800 dark:text-blue-300">GPU figures source</summary>
              <p className="mt-1">{preset.source}</p>
            </details>
          </>
        )
      }
    />
  );
}

function CustomGpuFields() {
  return (
    <>
      <TextField path={['cluster', 'gpu', 'name']} help={HELP.gpuName} />
      <div className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-3">
        {GPU_FIGURES.map(({ key, optional }) => (
          <NumberField key={key} path={pathUnder('cluster.gpu', key)} help={HELP[key]} optional={optional} />
        ))}
      </div>
    </>
  );
}

/** What an empty "CPU memory per node" and its bandwidth mean: the GPU preset's usual server (model/input/gpus.ts), with the sources. */
function HostMemoryDefault() {
  const gpu = usePlanner((s) => getAt(s.document, ['cluster', 'gpu']));
  const preset = typeof gpu === 'string' ? findGpuPreset(gpu) : undefined;
  const server = preset ?? findGpuPreset('h100-sxm');
  const gib = defaultHostMemoryGiB(preset?.id ?? null).toLocaleString('en-US');
  const gbps = defaultHostMemoryGBps(preset?.id ?? null).toLocaleString('en-US');
  return (
    <details className={HINT} data-testid="host-memory-default">
      <summary className="w-fit cursor-pointer text-blue-800 dark:text-blue-300">
        CPU memory per node when empty: {gib} GiB, {preset ? `the usual server for the ${preset.name}` : 'a DGX H100 (custom GPU)'}, at{' '}
        {gbps} GB/s
      </summary>
      <p className="mt-1">{server?.hostSource}</p>
      <p className="mt-1">{server?.hostMemoryGBpsSource}</p>
    </details>
  );
}

export function HardwareSection() {
  const custom = usePlanner((s) => isPlainObject(getAt(s.document, ['cluster', 'gpu'])));
  const gpu = usePlanner((s) => getAt(s.document, ['cluster', 'gpu']));
  const hostDefault = defaultHostMemoryGiB(typeof gpu === 'string' ? gpu : null);
  const bandwidthDefault = defaultHostMemoryGBps(typeof gpu === 'string' ? gpu : null);
  return (
    <Section title="Cluster" id="cluster">
      {custom && <CustomGpuFields />}
      <div className="grid grid-cols-[repeat(auto-fill,minmax(9.5rem,1fr))] gap-3">
        <NumberField path={['cluster', 'gpusPerNode']} help={HELP.gpusPerNode} />
        <NumberField
          path={['cluster', 'hostMemoryGiB']}
          help={HELP.hostMemoryGiB}
          optional
          placeholder={`${hostDefault.toLocaleString('en-US')} (default)`}
        />
        <NumberField
          path={['cluster', 'hostMemoryGBps']}
          help={HELP.hostMemoryGBps}
          optional
          placeholder={`${bandwidthDefault.toLocaleString('en-US')} (default)`}
        />
      </div>
      <HostMemoryDefault />
    </Section>
  );
}
