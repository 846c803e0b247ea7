/**
 * Just enough of IAM's evaluation to check recorded DynamoDB requests against a function's grants: the `StringLike`
 * operator, the `dynamodb:LeadingKeys` of each request as DynamoDB reports it to IAM, and Allow statements on a table
 * or its indexes. Every grant of the dashboard functions is an Allow; nothing here models Deny.
 */

/**
 * IAM's `StringLike`: case-sensitive, `*` matches any run of characters (none included), `?` exactly one, every
 * other character itself (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html#Conditions_String).
 */
function stringLike(pattern: string, value: string): boolean {
  let p = 0;
  let v = 0;
  // Where the last `*` was, and how much of the value it has taken: on a mismatch it takes one character more.
  let star = -1;
  let taken = 0;
  while (v < value.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === value[v])) {
      p++;
      v++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      taken = v;
    } else if (star >= 0) {
      p = star + 1;
      v = ++taken;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

/** One authorization DynamoDB asks of IAM: an action on the table or one of its indexes, with the keys it names. */
export interface Access {
  action: string;
  /** `table`, or `index/<name>`. */
  resource: string;
  /** `dynamodb:LeadingKeys`: the partition key values of the items the request names. */
  leadingKeys: string[];
}

type Wire = Record<string, unknown>;

function partitionKeyOf(item: unknown, partitionKey: string): string {
  const value = (item as Record<string, { S?: string }> | undefined)?.[partitionKey]?.S;
  if (value === undefined) throw new Error(`a request names an item without a string ${partitionKey}`);
  return value;
}

/** The transaction's parts, each authorized as the single-item action it stands for. */
const TRANSACT_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

/**
 * What IAM is asked for one DynamoDB request (its operation and JSON body), for a table whose partition key is
 * `partitionKey`. A transaction is authorized part by part as the item action each part stands for
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html); a batch is one
 * action naming every key. A Query's leading key is not modelled: a request the check cannot attribute fails it.
 */
export function accessesOf(operation: string, body: Wire, partitionKey: string): Access[] {
  switch (operation) {
    case 'GetItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [{ action: operation, resource: 'table', leadingKeys: [partitionKeyOf(body.Key, partitionKey)] }];
    case 'PutItem':
      return [{ action: operation, resource: 'table', leadingKeys: [partitionKeyOf(body.Item, partitionKey)] }];
    case 'TransactWriteItems':
    case 'TransactGetItems':
      return ((body.TransactItems ?? []) as Wire[]).flatMap((part) =>
        Object.entries(part).map(([kind, detail]) => {
          const action = TRANSACT_ACTIONS[kind];
          if (!action) throw new Error(`unknown transaction part ${kind}`);
          const key = kind === 'Put' ? (detail as Wire).Item : (detail as Wire).Key;
          return { action, resource: 'table', leadingKeys: [partitionKeyOf(key, partitionKey)] };
        }),
      );
    case 'BatchWriteItem':
      return [
        {
          action: operation,
          resource: 'table',
          leadingKeys: Object.values((body.RequestItems ?? {}) as Record<string, Wire[]>).flatMap((writes) =>
            writes.map((w) =>
              partitionKeyOf(
                (w.PutRequest as Wire | undefined)?.Item ?? (w.DeleteRequest as Wire | undefined)?.Key,
                partitionKey,
              ),
            ),
          ),
        },
      ];
    case 'Query':
      if (typeof body.IndexName !== 'string') throw new Error('a Query of the table itself is not modelled');
      return [{ action: operation, resource: `index/${body.IndexName}`, leadingKeys: [] }];
    default:
      return [{ action: operation, resource: 'table', leadingKeys: [] }];
  }
}

/** An Allow statement; with `leadingKeys`, under `ForAllValues:StringLike` on `dynamodb:LeadingKeys`. */
export interface AllowStatement {
  actions: string[];
  resources: string[];
  leadingKeys?: string[];
}

/**
 * Whether some statement allows the access. ForAllValues holds when every key matches one of the patterns, so a
 * request naming no key passes any such condition: which is why no keyless action is ever granted under one.
 */
export function isAllowed(statements: readonly AllowStatement[], access: Access): boolean {
  return statements.some(
    (st) =>
      st.actions.includes(access.action) &&
      st.resources.includes(access.resource) &&
      (st.leadingKeys === undefined ||
        access.leadingKeys.every((key) => st.leadingKeys?.some((pattern) => stringLike(pattern, key)))),
  );
}
