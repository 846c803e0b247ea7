/**
 * Which fields a Logs Insights query reads, and which fields Logs Insights discovers in a stored JSON log event
 * (its members, nested ones flattened with dots):
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/logs/CWL_AnalyzeLogData-discoverable-fields.html
 * Enough of the query language for the dashboard's queries (fields, filter, stats … by, sort, limit); a query that
 * names a field no line has shows an empty table, which is what the tests guard against.
 */

const KEYWORDS = new Set(['as', 'by', 'and', 'or', 'not', 'in', 'like', 'asc', 'desc']);

/** The log fields a query reads, without the aliases it defines, the system `@` fields, functions and literals. */
export function fieldsReadBy(query: string): string[] {
  const fields = new Set<string>();
  const aliases = new Set<string>();
  for (const command of query.split(/\s*\|\s*/)) {
    const [verb = '', ...rest] = command.trim().split(/\s+/);
    if (/^(source|limit)$/i.test(verb)) continue;
    const args = rest.join(' ').replace(/'[^']*'|"[^"]*"/g, ' ');
    for (const match of args.matchAll(/\bas\s+([A-Za-z_][\w.]*)/g)) if (match[1]) aliases.add(match[1]);
    for (const match of args.matchAll(/([A-Za-z_@][\w.@]*)\s*(\()?/g)) {
      const [, name = '', call] = match;
      const afterAs = /\bas\s*$/.test(args.slice(0, match.index));
      if (call || afterAs || KEYWORDS.has(name.toLowerCase()) || name.startsWith('@')) continue;
      fields.add(name);
    }
  }
  return [...fields].filter((name) => !aliases.has(name));
}

/** The fields Logs Insights discovers in one stored event: none for a line that is not a JSON object. */
export function discoveredFields(event: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(event);
  } catch {
    return {};
  }
  const out: Record<string, unknown> = {};
  const walk = (value: unknown, prefix: string) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) walk(inner, prefix ? `${prefix}.${key}` : key);
    } else if (prefix) {
      out[prefix] = value;
    }
  };
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) walk(parsed, '');
  return out;
}
