// explain/: "why this number?". The formula views the page opens from a figure:
// the equation with its values (equation.ts, explain.ts) and the memory terms (memory.ts).
// This file is the wing's one public entry: code outside the wing imports from here.

export { type Equation, evaluateEquation, type ExplainedFigure, isExplainedFigure, type Operator, type Quantity } from './equation.ts';
export { explainFigure } from './explain.ts';
