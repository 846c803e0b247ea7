/**
 * A small imitation of how CloudWatch evaluates a metric math alarm, for the tests that judge a synthesized alarm over
 * minute-by-minute datapoints: the expression language's arithmetic, comparisons, IF and FILL, and the alarm's
 * M-out-of-N evaluation with its missing-data treatment. Only what the service's alarms use; anything else throws,
 * so an alarm that starts using more cannot be judged by a part of the language this does not know.
 *
 * Metric math: https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/using-metric-math.html
 * Alarm evaluation: https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/alarm-evaluation.html
 * Missing data: https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/alarms-and-missing-data.html
 */

/** One period's value of a time series; undefined where the series has no datapoint. */
export type Datapoint = number | undefined;

type Node =
  | { kind: 'number'; value: number }
  | { kind: 'id'; name: string }
  | { kind: 'binary'; op: string; left: Node; right: Node }
  | { kind: 'call'; name: string; args: Node[] };

const TOKEN = /\s*(\d+(?:\.\d+)?|[A-Za-z_][A-Za-z0-9_]*|>=|<=|==|!=|[-+*/(),<>])/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.trimEnd().length) {
    const match = TOKEN.exec(text);
    if (!match?.[1]) throw new Error(`cannot read the expression at ${TOKEN.lastIndex}: ${text}`);
    tokens.push(match[1]);
  }
  return tokens;
}

/** Precedence climbing over the operators metric math has: comparisons below + and -, below * and /. */
const PRECEDENCE: Record<string, number> = {
  '>=': 1,
  '<=': 1,
  '>': 1,
  '<': 1,
  '==': 1,
  '!=': 1,
  '+': 2,
  '-': 2,
  '*': 3,
  '/': 3,
};

function parseExpression(text: string): Node {
  const tokens = tokenize(text);
  let at = 0;
  const peek = () => tokens[at];
  const take = (expected?: string) => {
    const token = tokens[at++];
    if (token === undefined || (expected !== undefined && token !== expected)) {
      throw new Error(`expected ${expected ?? 'a token'} at ${at - 1} of: ${text}`);
    }
    return token;
  };
  const primary = (): Node => {
    const token = take();
    if (token === '(') {
      const inner = binary(0);
      take(')');
      return inner;
    }
    if (/^\d/.test(token)) return { kind: 'number', value: Number(token) };
    if (/^[A-Za-z_]/.test(token)) {
      if (peek() !== '(') return { kind: 'id', name: token };
      take('(');
      const args: Node[] = [];
      while (peek() !== ')') {
        args.push(binary(0));
        if (peek() === ',') take(',');
      }
      take(')');
      return { kind: 'call', name: token, args };
    }
    throw new Error(`unexpected ${token} in: ${text}`);
  };
  const binary = (minimum: number): Node => {
    let left = primary();
    for (;;) {
      const op = peek();
      const precedence = op === undefined ? undefined : PRECEDENCE[op];
      if (op === undefined || precedence === undefined || precedence < minimum) break;
      take();
      left = { kind: 'binary', op, left, right: binary(precedence + 1) };
    }
    return left;
  };
  const tree = binary(0);
  if (at !== tokens.length) throw new Error(`trailing input in: ${text}`);
  return tree;
}

function apply(op: string, a: number, b: number): Datapoint {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      // Metric math leaves a division by zero out of the result.
      return b === 0 ? undefined : a / b;
    case '>=':
      return a >= b ? 1 : 0;
    case '<=':
      return a <= b ? 1 : 0;
    case '>':
      return a > b ? 1 : 0;
    case '<':
      return a < b ? 1 : 0;
    case '==':
      return a === b ? 1 : 0;
    case '!=':
      return a !== b ? 1 : 0;
    default:
      throw new Error(`unknown operator ${op}`);
  }
}

/**
 * The expression's value in one period. Series are aligned by timestamp: an operation on a series without a
 * datapoint in the period has none either, except FILL, which puts its value there; IF takes its second argument
 * where the condition is non-zero and its third where it is zero, and has no value where the condition has none.
 */
function valueAt(node: Node, series: Readonly<Record<string, readonly Datapoint[]>>, period: number): Datapoint {
  switch (node.kind) {
    case 'number':
      return node.value;
    case 'id': {
      const values = series[node.name];
      if (!values) throw new Error(`the expression reads ${node.name}, which no query of the alarm defines`);
      return values[period];
    }
    case 'binary': {
      const a = valueAt(node.left, series, period);
      const b = valueAt(node.right, series, period);
      return a === undefined || b === undefined ? undefined : apply(node.op, a, b);
    }
    case 'call': {
      const [first, second, third] = node.args;
      if (node.name === 'FILL' && node.args.length === 2 && first && second) {
        return valueAt(first, series, period) ?? valueAt(second, series, period);
      }
      if (node.name === 'IF' && node.args.length === 3 && first && second && third) {
        const condition = valueAt(first, series, period);
        if (condition === undefined) return undefined;
        return valueAt(condition !== 0 ? second : third, series, period);
      }
      throw new Error(`metric math function ${node.name}/${node.args.length} is not imitated here`);
    }
  }
}

/** One query of an alarm's `Metrics`, as CloudFormation has it. */
export interface AlarmQuery {
  Id: string;
  Expression?: string;
  ReturnData?: boolean;
  MetricStat?: { Metric: { Namespace: string; MetricName: string }; Period: number; Stat: string };
}

/** The properties of an AWS::CloudWatch::Alarm that decide its state. */
export interface MathAlarm {
  Metrics: AlarmQuery[];
  Threshold: number;
  ComparisonOperator: string;
  EvaluationPeriods: number;
  DatapointsToAlarm?: number;
  TreatMissingData?: string;
}

const COMPARE: Record<string, (value: number, threshold: number) => boolean> = {
  GreaterThanOrEqualToThreshold: (v, t) => v >= t,
  GreaterThanThreshold: (v, t) => v > t,
  LessThanThreshold: (v, t) => v < t,
  LessThanOrEqualToThreshold: (v, t) => v <= t,
};

/**
 * The alarm's returned series, one value per period, from each metric's datapoints. `metricData` gives a metric's
 * datapoints by its MetricName (a period without a datapoint is undefined), as CloudWatch would return them for the
 * query's dimensions and statistic.
 */
export function alarmSeries(alarm: MathAlarm, metricData: Readonly<Record<string, readonly Datapoint[]>>): Datapoint[] {
  const series: Record<string, readonly Datapoint[]> = {};
  let periods = 0;
  for (const query of alarm.Metrics) {
    if (!query.MetricStat) continue;
    const data = metricData[query.MetricStat.Metric.MetricName];
    if (!data) throw new Error(`no datapoints given for ${query.MetricStat.Metric.MetricName}`);
    series[query.Id] = data;
    periods = Math.max(periods, data.length);
  }
  const returned = alarm.Metrics.filter((query) => query.ReturnData !== false);
  if (returned.length !== 1 || !returned[0]?.Expression) throw new Error('the alarm must return one expression');
  const tree = parseExpression(returned[0].Expression);
  return Array.from({ length: periods }, (_, period) => valueAt(tree, series, period));
}

type AlarmState = 'OK' | 'ALARM';

/**
 * The alarm's state after each period: of the last EvaluationPeriods values, at least DatapointsToAlarm breach.
 * Missing values count as TreatMissingData says (notBreaching or breaching; the others keep or skip state, which
 * this imitation does not need).
 */
export function alarmStates(alarm: MathAlarm, values: readonly Datapoint[]): AlarmState[] {
  const compare = COMPARE[alarm.ComparisonOperator];
  if (!compare) throw new Error(`comparison ${alarm.ComparisonOperator} is not imitated here`);
  const missing = alarm.TreatMissingData ?? 'missing';
  if (missing !== 'notBreaching' && missing !== 'breaching') {
    throw new Error(`TreatMissingData ${missing} is not imitated here`);
  }
  const needed = alarm.DatapointsToAlarm ?? alarm.EvaluationPeriods;
  const breaches = values.map((v) => (v === undefined ? missing === 'breaching' : compare(v, alarm.Threshold)));
  return breaches.map((_, end) => {
    const window = breaches.slice(Math.max(0, end + 1 - alarm.EvaluationPeriods), end + 1);
    return window.filter(Boolean).length >= needed ? 'ALARM' : 'OK';
  });
}
