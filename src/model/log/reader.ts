// Reads a training log as it streams in: push() any slice of the text (a line may be cut
// anywhere), end() for the report. One pass, one line at a time, so a 50 MB log reads in
// about a second and a worker can report progress between slices. Never throws.

import { analyze, type Gathered } from './analyze.ts';
import { readLine, type LineSink, type StepFields } from './lines.ts';
import { lineTime } from './numbers.ts';
import { MEMORY_METRICS, type LogFacts, type LogFramework, type LogReport, type MemoryMetric, type StepRecord } from './types.ts';

/** Lines longer than this are not log lines (a pasted binary, a minified file): skipped unread. */
const MAX_CARRY_CHARS = 1_000_000;

export class LogReader implements LineSink {
  private carry = '';
  private readonly records = new Map<number, StepRecord>();
  private readonly votes = new Map<LogFramework, number>();
  private readonly markers = new Set<LogFramework>();
  private readonly facts: LogFacts = {};
  private setupMemory: { metric: MemoryMetric; bytes: number } | null = null;
  private summaryValues: Gathered['summary'] = null;
  private lastStep: number | null = null;
  private progressSeen = false;
  private ordinal = 0;
  private currentLine = '';
  private linesRead = 0;

  /** Feeds the next slice of the log. */
  push(text: string): void {
    let start = 0;
    let buffer = this.carry + text;
    if (buffer.length > MAX_CARRY_CHARS && buffer.indexOf('\n') < 0) buffer = '';
    for (;;) {
      const newline = buffer.indexOf('\n', start);
      if (newline < 0) break;
      this.line(buffer.slice(start, newline));
      start = newline + 1;
    }
    this.carry = buffer.slice(start);
  }

  /** The report of everything pushed so far (the last line need not end in a newline). */
  end(): LogReport {
    if (this.carry) this.line(this.carry);
    this.carry = '';
    return analyze({
      records: [...this.records.values()].sort((a, b) => a.step - b.step),
      framework: this.framework(),
      facts: this.facts,
      setupMemory: this.setupMemory,
      summary: this.summaryValues,
      ordinalSteps: this.ordinal > 0,
      linesRead: this.linesRead,
    });
  }

  private line(raw: string): void {
    this.linesRead += 1;
    // tqdm redraws its bar with carriage returns: each redraw is a line of its own.
    const parts = raw.includes('\r') ? raw.split('\r') : [raw];
    for (const part of parts) {
      this.currentLine = part;
      readLine(part, this);
    }
  }

  private framework(): LogFramework | null {
    let best: LogFramework | null = null;
    let most = 0;
    for (const [framework, count] of this.votes) if (count > most) [best, most] = [framework, count];
    // Megatron-DeepSpeed prints Megatron's iteration lines beside DeepSpeed's own.
    const megatronLines = (this.votes.get('megatron') ?? 0) + (this.votes.get('megatron-deepspeed') ?? 0);
    if (megatronLines > 0 && (this.votes.has('megatron-deepspeed') || this.votes.has('deepspeed') || this.markers.has('deepspeed')))
      return 'megatron-deepspeed';
    if (best === null && this.markers.has('deepspeed')) return 'deepspeed';
    return best;
  }

  step(framework: LogFramework | null, record: StepFields): void {
    let step = record.step;
    if (step === null) step = this.progressSeen && this.lastStep !== null ? this.lastStep : (this.ordinal += 1);
    if (!Number.isSafeInteger(step) || step < 0) return;
    if (framework) this.votes.set(framework, (this.votes.get(framework) ?? 0) + 1);
    else if (record.stepSeconds !== undefined && record.memory === undefined) this.progressSeen = true;
    // The timestamp matters only where the line prints no step time (derive() times the step from it).
    const time = record.stepSeconds === undefined && framework !== null ? lineTime(this.currentLine) : undefined;
    let into = this.records.get(step);
    if (!into) {
      into = emptyRecord(step);
      this.records.set(step, into);
    }
    fill(into, record, time);
    this.lastStep = step;
  }

  fact(key: keyof LogFacts, value: number | undefined): void {
    if (value !== undefined) this.facts[key] = value;
  }

  memory(metric: MemoryMetric, bytes: number): void {
    if (this.lastStep === null) {
      if (!this.setupMemory || bytes > this.setupMemory.bytes) this.setupMemory = { metric: 'after setup', bytes };
      return;
    }
    const record = this.records.get(this.lastStep);
    if (record) fill(record, { step: this.lastStep, memory: { [metric]: bytes } }, undefined);
  }

  summary(values: NonNullable<Gathered['summary']>): void {
    this.summaryValues = values;
  }

  marker(framework: LogFramework): void {
    this.markers.add(framework);
  }
}

function emptyRecord(step: number): StepRecord {
  return {
    step,
    loss: undefined,
    gradNorm: undefined,
    stepSeconds: undefined,
    tokensPerSecondPerGpu: undefined,
    tflopsPerGpu: undefined,
    mfu: undefined,
    samplesPerSecond: undefined,
    memory: undefined,
    time: undefined,
    nanIterations: undefined,
    skippedIterations: undefined,
    skippedTotal: undefined,
  };
}

/**
 * A figure that cannot be negative or infinite: a line that says so is misread, and the figure is dropped (loss and grad norm
 * keep NaN/Inf: those are the anomalies).
 */
const rate = (x: number | undefined) => (x !== undefined && Number.isFinite(x) && x >= 0 ? x : undefined);

/**
 * The same step printed twice (every rank, or two reports of one step): the first value of a
 * figure stays; memory keeps the largest (the most loaded GPU).
 */
function fill(r: StepRecord, f: StepFields, time: number | undefined): void {
  r.loss ??= f.loss;
  r.gradNorm ??= f.gradNorm;
  r.stepSeconds ??= rate(f.stepSeconds);
  r.tokensPerSecondPerGpu ??= rate(f.tokensPerSecondPerGpu);
  r.tflopsPerGpu ??= rate(f.tflopsPerGpu);
  r.mfu ??= rate(f.mfu);
  r.samplesPerSecond ??= rate(f.samplesPerSecond);
  r.nanIterations ??= rate(f.nanIterations);
  r.skippedIterations ??= rate(f.skippedIterations);
  r.skippedTotal ??= rate(f.skippedTotal);
  r.time ??= time;
  if (f.memory) {
    for (const metric of MEMORY_METRICS) {
      const bytes = rate(f.memory[metric]);
      if (bytes === undefined) continue;
      r.memory ??= {};
      r.memory[metric] = Math.max(bytes, r.memory[metric] ?? 0);
    }
  }
}

/** Reads a whole log at once. */
export function readLog(text: string): LogReport {
  const reader = new LogReader();
  reader.push(text);
  return reader.end();
}
