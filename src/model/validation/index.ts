// validation/: "how right is it?". The engine against published runs (validate.ts,
// report.ts), calibrating from the user's own run (fit-run.ts) and the uncertainty bands
// the validation errors give (uncertainty*.ts).
// This file is the wing's one public entry: code outside the wing imports from here.

export * from './fit-run.ts';
export * from './report.ts';
export * from './uncertainty-fit.ts';
export * from './uncertainty-table.ts';
export * from './uncertainty.ts';
export * from './validate.ts';
export * from './finetune.ts';
