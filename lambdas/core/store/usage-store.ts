import { hash } from 'node:crypto';
import { type AttributeValue, type DynamoDBClient, GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { type Clock, systemClock } from '../domain/dates';
import type { PlanLimits } from '../domain/plans';
import {
  dayOfMonth,
  decideAdmission,
  effectiveLimit,
  type Instant,
  type MeterState,
  type MeterVerdict,
  minuteOfMonth,
  monthKey,
  monthStartMs,
  type UsageCounts,
} from '../domain/quota';
import { requireEnv } from '../env';
import { isConditionFailure, meteringClient } from './clients';
import { ACCOUNTS_TABLE, usageKey } from './tables';

/**
 * The usage item `USAGE#<account>#<YYYY-MM>`: `month_count` (requests counting toward the month), `m<minute>` and
 * `d<day>` (admitted), `x<day>` (refused), `r0`…`r15` (digests of recent request ids), `expires_at` (TTL).
 *
 * Naming the minute's counter after the minute makes admission one write in every case (no rollover write or race).
 * Each write drops the counter from two minutes back (keeping one for a lagging clock); older ones left by a gap
 * are removed by a second write, so the item stays within one write capacity unit. An SDK retry of a write whose
 * answer was lost finds its digest in its slot and is read as "already counted" (unless another request's digest
 * took that slot, 1 in 16, in between).
 */
const MONTH_COUNT = 'month_count';
const EXPIRES_AT = ACCOUNTS_TABLE.ttlAttribute ?? 'expires_at';
const MINUTE_ATTRIBUTE = /^m(\d+)$/;
const REQUEST_SLOTS = 16;
const RETENTION_MONTHS_AFTER_END = 3;
/** A conditional refusal whose reason the stored counts do not show is retried; this bounds the retries. */
const MAX_ATTEMPTS = 3;

const DAY_ATTRIBUTE = /^d(\d+)$/;
const REFUSED_ATTRIBUTE = /^x(\d+)$/;

const minuteAttribute = (minute: number): string => `m${minute}`;
const dayAttribute = (day: number): string => `d${day}`;
const refusedAttribute = (day: number): string => `x${day}`;

export interface AdmitInput {
  accountId: string;
  limits: PlanLimits;
  /** False for GET /v1/quota: counts toward the minute only, and is admitted when the month is used up. */
  countsTowardMonth: boolean;
  /** The API request id; when given, an SDK retry of an already applied write is not counted twice. */
  requestId?: string;
}

export interface UsageStoreDeps {
  clock: Clock;
  /** Told when removing stale minute counters or counting a refusal fails; the verdict is not affected by it. */
  onCleanupError?: (error: unknown) => void;
}

type Stored = Record<string, unknown>;

/** What an admission write found: its requests counted, or the item that refused them. */
export type AdmissionOutcome = { counted: Stored } | { refused: Stored | undefined };

/** One admission write: the usage item, the minute it counts in, and how its answers read. */
export interface AdmissionPlan {
  pk: string;
  minute: number;
  limits: { minuteLimit: number; monthLimit: number };
  slot: { attribute: string; digest: string } | undefined;
  expression: ReturnType<typeof admissionExpression>;
  state(verdict: MeterVerdict, counts: UsageCounts): MeterState;
  countsOf(item: Stored | undefined): UsageCounts;
}

/** The usage item holds only numbers and strings, so the store marshals them itself and reads nothing else. */
function unmarshallCounts(item: Record<string, AttributeValue> | undefined): Stored | undefined {
  if (item === undefined) return undefined;
  const out: Stored = {};
  for (const [name, value] of Object.entries(item)) {
    if (value.N !== undefined) out[name] = Number(value.N);
    else if (value.S !== undefined) out[name] = value.S;
  }
  return out;
}

function count(item: Stored | undefined, attribute: string): number {
  const value = item?.[attribute];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function requestSlot(requestId: string): { attribute: string; digest: string } {
  const digest = hash('sha256', requestId, 'buffer');
  return { attribute: `r${(digest[0] ?? 0) % REQUEST_SLOTS}`, digest: digest.subarray(1, 10).toString('base64url') };
}

/** The month's counts as the dashboard shows them. */
export interface MonthUsage {
  monthUsed: number;
  admittedByDay: Map<number, number>;
  refusedByDay: Map<number, number>;
}

interface AdmissionParts {
  minute: number;
  day: number;
  minuteLimit: number;
  monthLimit: number;
  /** How many requests the write admits: it adds this many, and only if the counts leave room for all. */
  count: number;
  countsTowardMonth: boolean;
  slot: { attribute: string; digest: string } | undefined;
  expiresAt: number;
}

/**
 * `NOT a >= b` rather than `attribute_not_exists(a) OR a < b`: the same (a comparison with a missing attribute is
 * false), and a fifth the parsing cost in the local server's embedded store.
 */
function admissionExpression(parts: AdmissionParts) {
  const names: Record<string, string> = {
    '#m': minuteAttribute(parts.minute),
    '#d': dayAttribute(parts.day),
    '#x': EXPIRES_AT,
  };
  const values: Record<string, AttributeValue> = {
    ':one': { N: String(parts.count) },
    ':ml': { N: String(parts.minuteLimit - parts.count + 1) },
    ':x': { N: String(parts.expiresAt) },
  };
  const add = ['#m :one', '#d :one'];
  const set = ['#x = :x'];
  const conditions = ['NOT #m >= :ml'];
  let remove = '';
  if (parts.countsTowardMonth) {
    names['#c'] = MONTH_COUNT;
    values[':cl'] = { N: String(parts.monthLimit - parts.count + 1) };
    add.push('#c :one');
    conditions.push('NOT #c >= :cl');
  }
  if (parts.slot) {
    names['#r'] = parts.slot.attribute;
    values[':r'] = { S: parts.slot.digest };
    set.push('#r = :r');
    conditions.push('NOT #r = :r');
  }
  if (parts.minute >= 2) {
    names['#old'] = minuteAttribute(parts.minute - 2);
    remove = ' REMOVE #old';
  }
  return {
    UpdateExpression: `ADD ${add.join(', ')} SET ${set.join(', ')}${remove}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * `admit` is one conditional UpdateItem returning ALL_NEW, so concurrent requests are admitted exactly up to the
 * limits. A refusal writes nothing and takes its figures from the failed condition's item (ALL_OLD), or from one
 * consistent read where an implementation does not return it (DynamoDB does). A write can admit several requests
 * at once (`plan`'s `requests`), which the local server's store does for requests that arrive together.
 */
export class UsageStore {
  constructor(
    private readonly client: DynamoDBClient,
    readonly tableName: string,
    protected readonly deps: UsageStoreDeps,
  ) {}

  async admit(input: AdmitInput): Promise<MeterState> {
    return this.admitOne(input, this.deps.clock().getTime());
  }

  /** The write that admits `requests` requests like `input` at `at`, and how its answers read. */
  protected plan(input: AdmitInput, at: number, requests: number): AdmissionPlan {
    const limits = { minuteLimit: input.limits.perMinute, monthLimit: effectiveLimit(input.limits) };
    const pk = usageKey(input.accountId, monthKey(at));
    const minute = minuteOfMonth(at);
    const slot = input.requestId === undefined ? undefined : requestSlot(input.requestId);
    const expiresAt = Math.floor(monthStartMs(at, 1 + RETENTION_MONTHS_AFTER_END) / 1000);
    return {
      pk,
      minute,
      limits,
      slot,
      expression: admissionExpression({
        minute,
        day: dayOfMonth(at),
        ...limits,
        count: requests,
        countsTowardMonth: input.countsTowardMonth,
        slot,
        expiresAt,
      }),
      state: (verdict: MeterVerdict, counts: UsageCounts): MeterState => ({
        verdict,
        plan: input.limits.name,
        ...limits,
        ...counts,
        at,
      }),
      countsOf: (item: Stored | undefined): UsageCounts => ({
        minuteUsed: count(item, minuteAttribute(minute)),
        monthUsed: count(item, MONTH_COUNT),
      }),
    };
  }

  /**
   * The admission's conditional write. `counted`: the item with the requests counted, by this write or by an
   * earlier attempt of it whose answer was lost (an SDK retry finds its request id's digest in its slot).
   * `refused`: the item as the failed condition found it. `client` is the store's own unless a subclass sends
   * through another.
   */
  protected async send(plan: AdmissionPlan, client = this.client): Promise<AdmissionOutcome> {
    try {
      const out = await client.send(new UpdateItemCommand(this.admissionWrite(plan)));
      return await this.counted(plan, out.Attributes);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return await this.refused(plan, error.Item);
    }
  }

  /** The UpdateItem input of an admission write. */
  protected admissionWrite(plan: AdmissionPlan) {
    return {
      TableName: this.tableName,
      Key: { pk: { S: plan.pk } },
      ...plan.expression,
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    } as const;
  }

  /** The outcome of a write that succeeded, with the item it left (ALL_NEW). */
  protected async counted(plan: AdmissionPlan, attributes: Record<string, AttributeValue> | undefined) {
    const item = unmarshallCounts(attributes) ?? {};
    await this.removeStaleMinutes(plan.pk, item, plan.minute);
    return { counted: item };
  }

  /** The outcome of a write whose condition failed, with the item it found (ALL_OLD) when the store returned it. */
  protected async refused(plan: AdmissionPlan, attributes: Record<string, AttributeValue> | undefined) {
    // The condition can only fail on an existing item; when the error does not carry it, it is read.
    const old =
      unmarshallCounts(attributes) ??
      (await this.read(plan.pk, [
        minuteAttribute(plan.minute),
        MONTH_COUNT,
        ...(plan.slot ? [plan.slot.attribute] : []),
      ]));
    const { slot } = plan;
    return slot && old?.[slot.attribute] === slot.digest ? { counted: old } : { refused: old };
  }

  protected async admitOne(input: AdmitInput, at: number): Promise<MeterState> {
    const plan = this.plan(input, at, 1);
    const { pk, limits } = plan;

    const refused = async (verdict: MeterVerdict, counts: UsageCounts): Promise<MeterState> => {
      if (verdict !== 'admitted') await this.countRefusal(pk, at);
      return plan.state(verdict, counts);
    };

    // A limit of 0 blocks the account; the write's "counter absent" branch would admit, so decide from a read.
    // Nothing is written for a blocked account, its refusals included: an operator's block costs no writes.
    if (limits.minuteLimit <= 0 || (input.countsTowardMonth && limits.monthLimit <= 0)) {
      const counts = plan.countsOf(await this.read(pk, [minuteAttribute(plan.minute), MONTH_COUNT]));
      return plan.state(decideAdmission(counts, limits, input.countsTowardMonth), counts);
    }

    for (let attempt = 1; ; attempt++) {
      const outcome = await this.send(plan);
      if ('counted' in outcome) return plan.state('admitted', plan.countsOf(outcome.counted));
      const counts = plan.countsOf(outcome.refused);
      const verdict = decideAdmission(counts, limits, input.countsTowardMonth);
      if (verdict !== 'admitted') return refused(verdict, counts);
      if (attempt >= MAX_ATTEMPTS) {
        throw new Error('usage write was refused although the stored counts leave room');
      }
    }
  }

  /** For an inactive account's refusal, which carries the rate-limit headers; `admitted`: no limit refused it. */
  async peek(accountId: string, limits: PlanLimits): Promise<MeterState> {
    const at = this.deps.clock().getTime();
    const minute = minuteAttribute(minuteOfMonth(at));
    const item = await this.read(usageKey(accountId, monthKey(at)), [minute, MONTH_COUNT]);
    return {
      verdict: 'admitted',
      plan: limits.name,
      minuteLimit: limits.perMinute,
      monthLimit: effectiveLimit(limits),
      minuteUsed: count(item, minute),
      monthUsed: count(item, MONTH_COUNT),
      at,
    };
  }

  /** Requests counted toward the month of `now` (the store's clock when omitted). */
  async getMonthUsed(accountId: string, now: Instant = this.deps.clock()): Promise<number> {
    return count(await this.read(usageKey(accountId, monthKey(now)), [MONTH_COUNT]), MONTH_COUNT);
  }

  /** The month of `now`: its count and its requests and refusals per day. One read. */
  async monthUsage(accountId: string, now: Instant = this.deps.clock()): Promise<MonthUsage> {
    const out = await this.client.send(
      new GetItemCommand({
        TableName: this.tableName,
        Key: { pk: { S: usageKey(accountId, monthKey(now)) } },
        ConsistentRead: true,
      }),
    );
    const item = unmarshallCounts(out.Item) ?? {};
    const byDay = (pattern: RegExp): Map<number, number> => {
      const counts = new Map<number, number>();
      for (const name of Object.keys(item)) {
        const m = pattern.exec(name);
        if (m) counts.set(Number(m[1]), count(item, name));
      }
      return counts;
    };
    return {
      monthUsed: count(item, MONTH_COUNT),
      admittedByDay: byDay(DAY_ATTRIBUTE),
      refusedByDay: byDay(REFUSED_ATTRIBUTE),
    };
  }

  /** A failure goes to `onCleanupError` and never turns a 429 into a 5xx. */
  private async countRefusal(pk: string, at: number): Promise<void> {
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { pk: { S: pk } },
          UpdateExpression: 'ADD #day :one SET #x = if_not_exists(#x, :x)',
          ExpressionAttributeNames: { '#day': refusedAttribute(dayOfMonth(at)), '#x': EXPIRES_AT },
          ExpressionAttributeValues: {
            ':one': { N: '1' },
            ':x': { N: String(Math.floor(monthStartMs(at, 1 + RETENTION_MONTHS_AFTER_END) / 1000)) },
          },
        }),
      );
    } catch (error) {
      this.deps.onCleanupError?.(error);
    }
  }

  private async read(pk: string, attributes: string[]): Promise<Stored | undefined> {
    const names = Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name]));
    const out = await this.client.send(
      new GetItemCommand({
        TableName: this.tableName,
        Key: { pk: { S: pk } },
        ConsistentRead: true,
        ProjectionExpression: Object.keys(names).join(', '),
        ExpressionAttributeNames: names,
      }),
    );
    return unmarshallCounts(out.Item);
  }

  /** Removes minute counters older than the previous minute, left behind by a gap in traffic. */
  protected async removeStaleMinutes(pk: string, item: Stored, minute: number): Promise<void> {
    const stale = Object.keys(item).filter((name) => {
      const m = MINUTE_ATTRIBUTE.exec(name);
      return m !== null && Number(m[1]) < minute - 1;
    });
    if (stale.length === 0) return;
    const names = Object.fromEntries(stale.map((name, i) => [`#s${i}`, name]));
    try {
      await this.client.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: { pk: { S: pk } },
          UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
        }),
      );
    } catch (error) {
      this.deps.onCleanupError?.(error);
    }
  }
}

let shared: UsageStore | undefined;

/** The module-scope store of a function: the shared client and the accounts table named by its variable. */
export function usageStore(): UsageStore {
  shared ??= new UsageStore(meteringClient(), requireEnv(ACCOUNTS_TABLE.envVar), { clock: systemClock });
  return shared;
}
