/**
 * What a Contributor Insights rule of `LogFormat: JSON` makes of stored log events, following the rule syntax:
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/ContributorInsights-RuleSyntax.html
 * An event is read only if it is a JSON object; `Keys`, `ValueOf` and each filter's `Match` are JSON paths into
 * it; every filter must hold (they are ANDed); matching is case sensitive. Pure, so the same evaluator judges the
 * lines of any writer.
 */
import { parseObject } from './embedded-metrics';

interface InsightRuleFilter {
  Match: string;
  In?: (string | number)[];
  NotIn?: (string | number)[];
  StartsWith?: string[];
  EqualTo?: number;
  NotEqualTo?: number;
  GreaterThan?: number;
  LessThan?: number;
  IsPresent?: boolean;
}

export interface InsightRuleBody {
  Schema: { Name: string; Version: number };
  LogGroupNames: string[];
  LogFormat: 'JSON' | 'CLF';
  Contribution: { Keys: string[]; ValueOf?: string; Filters?: InsightRuleFilter[] };
  AggregateOn: 'Count' | 'Sum';
}

const OPERATORS = [
  'In',
  'NotIn',
  'StartsWith',
  'EqualTo',
  'NotEqualTo',
  'GreaterThan',
  'LessThan',
  'IsPresent',
] as const;

/** The value at a JSON path such as `$.a.b` or `$.list[0].c`; undefined when any step is missing. */
function atJsonPath(document: unknown, path: string): unknown {
  if (!path.startsWith('$')) throw new Error(`not a JSON path: ${path}`);
  const steps = [...path.slice(1).matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)];
  if (steps.map((step) => step[0]).join('') !== path.slice(1)) throw new Error(`unsupported JSON path: ${path}`);
  let value: unknown = document;
  for (const [, member, index] of steps) {
    if (value === null || typeof value !== 'object') return undefined;
    value = member !== undefined ? (value as Record<string, unknown>)[member] : (value as unknown[])[Number(index)];
  }
  return value;
}

function passes(document: Record<string, unknown>, filter: InsightRuleFilter): boolean {
  const operators = OPERATORS.filter((op) => filter[op] !== undefined);
  if (operators.length !== 1) throw new Error(`a filter has exactly one operator: ${JSON.stringify(filter)}`);
  const value = atJsonPath(document, filter.Match);
  const number = typeof value === 'number' ? value : undefined;
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  switch (operators[0]) {
    case 'IsPresent':
      return (value !== undefined) === filter.IsPresent;
    case 'In':
      return text !== undefined && (filter.In ?? []).some((item) => String(item) === text);
    case 'NotIn':
      return text !== undefined && !(filter.NotIn ?? []).some((item) => String(item) === text);
    case 'StartsWith':
      return text !== undefined && (filter.StartsWith ?? []).some((prefix) => text.startsWith(prefix));
    case 'EqualTo':
      return number === filter.EqualTo;
    case 'NotEqualTo':
      return number !== undefined && number !== filter.NotEqualTo;
    case 'GreaterThan':
      return number !== undefined && number > (filter.GreaterThan as number);
    case 'LessThan':
      return number !== undefined && number < (filter.LessThan as number);
    default:
      throw new Error(`unsupported filter ${JSON.stringify(filter)}`);
  }
}

/** The separator of a contributor's key values in `contributors`' result. */
export const KEY_SEPARATOR = ' | ';

/**
 * Each contributor (its key values joined by KEY_SEPARATOR) with its aggregate over the events: the number of
 * matching events (`Count`) or the sum of their `ValueOf` (`Sum`). An event that lacks a key, or whose `ValueOf`
 * is not a number for a sum, contributes nothing.
 */
export function contributors(rule: InsightRuleBody, events: readonly string[]): Record<string, number> {
  if (rule.Schema.Name !== 'CloudWatchLogRule' || rule.Schema.Version !== 1) throw new Error('not a log rule');
  if (rule.LogFormat !== 'JSON') throw new Error(`only JSON rules are evaluated here, not ${rule.LogFormat}`);
  const { Keys, ValueOf, Filters = [] } = rule.Contribution;
  const out: Record<string, number> = {};
  for (const event of events) {
    const document = parseObject(event);
    if (!document || !Filters.every((filter) => passes(document, filter))) continue;
    const keys = Keys.map((path) => atJsonPath(document, path));
    if (keys.some((key) => key === undefined || key === null || typeof key === 'object')) continue;
    let value = 1;
    if (rule.AggregateOn === 'Sum') {
      const of = ValueOf === undefined ? undefined : atJsonPath(document, ValueOf);
      if (typeof of !== 'number') continue;
      value = of;
    }
    const contributor = keys.map(String).join(KEY_SEPARATOR);
    out[contributor] = (out[contributor] ?? 0) + value;
  }
  return out;
}
