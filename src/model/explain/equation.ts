// The shape of an explanation: equations whose operands are the configuration's and
// the output's own values, and their evaluation with the usual precedence, so tests
// can check that each formula, evaluated, gives the result it is shown with.

export type QuantityUnit =
  | 'bytes'
  | 'bytes-per-parameter'
  | 'bytes-per-logit'
  | 'parameters'
  | 'count'
  | 'gpus'
  | 'sequences'
  | 'tokens'
  | 'seconds'
  | 'tokens-per-second'
  | 'flop'
  | 'flop-per-second'
  | 'fraction'
  | 'days'
  | 'hours-per-day'
  | 'seconds-per-day'
  | 'gpu-hours'
  | 'usd'
  | 'usd-per-gpu-hour';

export interface Quantity {
  readonly name: string;
  readonly value: number;
  readonly unit: QuantityUnit;
}

export type Operator = '+' | '−' | '×' | '÷';

/**
 * result = operands joined by operators (× and ÷ before + and −). No operands: the engine's inventory gives the value.
 * Fields in the order equation() takes them.
 */
export interface Equation {
  /** Stable key of the line (a memory part, a time part, …). */
  readonly id: string;
  readonly result: Quantity;
  /** The right-hand side in words, e.g. "bytes per weight × weights on this GPU". */
  readonly formula: string;
  readonly source: string | null;
  readonly operands: readonly Quantity[];
  readonly operators: readonly Operator[];
}

export const EXPLAINED_FIGURES = [
  'memory-total',
  'step-time',
  'tokens-per-second',
  'mfu',
  'bubble-fraction',
  'training-days',
  'cost-usd',
] as const;
export type ExplainedFigure = (typeof EXPLAINED_FIGURES)[number];

export interface Explanation {
  readonly figure: ExplainedFigure;
  readonly title: string;
  /** One or two sentences of context: which GPU, which stage, what the figure means. */
  readonly lead: string;
  /** The headline equation first, then how its terms were computed. */
  readonly equations: readonly Equation[];
  readonly notes: readonly string[];
}

export function isExplainedFigure(id: string): id is ExplainedFigure {
  return (EXPLAINED_FIGURES as readonly string[]).includes(id);
}

/** Evaluates operands and operators with the usual precedence (× ÷ before + −). NaN for a malformed line. */
export function evaluateEquation(operands: readonly Quantity[], operators: readonly Operator[]): number {
  if (operands.length === 0 || operators.length !== operands.length - 1) return Number.NaN;
  const terms: number[] = [operands[0]?.value ?? Number.NaN];
  const signs: number[] = [1];
  operators.forEach((op, i) => {
    const value = operands[i + 1]?.value ?? Number.NaN;
    const last = terms.length - 1;
    if (op === '×') terms[last] = (terms[last] ?? Number.NaN) * value;
    else if (op === '÷') terms[last] = (terms[last] ?? Number.NaN) / value;
    else {
      terms.push(value);
      signs.push(op === '+' ? 1 : -1);
    }
  });
  return terms.reduce((sum, term, i) => sum + (signs[i] ?? 1) * term, 0);
}

/** Builds an equation from alternating quantities and operators. */
export function equation(
  id: string,
  result: Quantity,
  formula: string,
  source: string | null,
  ...parts: (Quantity | Operator)[]
): Equation {
  const operands = parts.filter((p): p is Quantity => typeof p !== 'string');
  const operators = parts.filter((p): p is Operator => typeof p === 'string');
  return { id, result, formula, source, operands, operators };
}

/** q₁ op q₂ op … op qₙ: quantities joined by one operator, as equation's parts (a sum, a product, a chain of quotients). */
export function joined(op: Operator, ...quantities: readonly Quantity[]): (Quantity | Operator)[] {
  return quantities.flatMap((q, i): (Quantity | Operator)[] => (i === 0 ? [q] : [op, q]));
}
