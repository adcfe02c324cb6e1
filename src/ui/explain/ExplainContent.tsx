// The formula view of one figure: the engine's equations with this configuration's
// numbers substituted (model/explain.ts), each with its source. Loaded on first use.

import { useMemo } from 'react';
import { parseDocument } from '../../model/input/index.ts';
import { explainFigure, type Equation, type ExplainedFigure, type Operator, type Quantity } from '../../model/explain/index.ts';
import type { EstimateOutput } from '../../model/input/index.ts';
import { UNCERTAINTY_TABLE } from '../../model/validation/index.ts';
import { usePlanner } from '../../state/react.ts';
import { formatQuantity } from './quantityFormat.ts';

function Term({ q, testId }: { q: Quantity; testId: string }) {
  return (
    <span className="inline-flex flex-col items-center align-top">
      <span data-testid={testId} data-name={q.name} data-value={q.value} className="font-mono font-semibold tabular-nums">
        {formatQuantity(q)}
      </span>
      <span className="max-w-[10rem] text-center text-xs leading-tight text-gray-700 dark:text-gray-300">{q.name}</span>
    </span>
  );
}

function Op({ op }: { op: Operator | '=' }) {
  return <span className="px-1 font-mono text-gray-800 dark:text-gray-200">{op}</span>;
}

function EquationBlock({ line }: { line: Equation }) {
  return (
    <li data-testid={`explain-${line.id}`} className="flex flex-col gap-1 border-t border-gray-200 pt-3 dark:border-gray-700">
      <p className="text-sm">
        <strong>{line.result.name}</strong> = {line.formula}
      </p>
      <p className="flex flex-wrap items-start gap-y-2 text-sm">
        {line.operands.map((q, i) => (
          <span key={i} className="inline-flex items-start">
            {i > 0 && <Op op={line.operators[i - 1] ?? '+'} />}
            <Term q={q} testId="explain-operand" />
          </span>
        ))}
        {line.operands.length > 0 && <Op op="=" />}
        <Term q={line.result} testId="explain-result" />
      </p>
      {line.source && <p className="text-xs text-gray-700 dark:text-gray-300">Source: {line.source}</p>}
    </li>
  );
}

export default function ExplainContent({ figure, output }: { figure: ExplainedFigure; output: EstimateOutput }) {
  const document = usePlanner((s) => s.outputDocument);
  const explanation = useMemo(() => {
    const parsed = parseDocument(document);
    return parsed.ok ? explainFigure(figure, parsed.config, output, UNCERTAINTY_TABLE) : null;
  }, [document, figure, output]);
  if (!explanation) return <p className="mt-3 text-sm">No formula to show: the configuration these figures came from could not be read.</p>;
  return (
    <div className="mt-3 flex flex-col gap-3">
      <p className="text-sm text-gray-800 dark:text-gray-200">{explanation.lead}</p>
      <ol className="flex flex-col gap-3">
        {explanation.equations.map((line) => (
          <EquationBlock key={line.id} line={line} />
        ))}
      </ol>
      {explanation.notes.map((note) => (
        <p key={note} className="text-xs text-gray-700 dark:text-gray-300">
          {note}
        </p>
      ))}
      <p className="text-xs text-gray-700 dark:text-gray-300">
        The numbers are the ones this estimate used; the result on the right of each line is the figure the engine reported.
      </p>
    </div>
  );
}
