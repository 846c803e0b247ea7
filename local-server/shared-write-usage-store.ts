import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { effectiveLimit, type MeterState, monthKey } from '../lambdas/core/domain/quota';
import { usageKey } from '../lambdas/core/store/tables';
import {
  type AdmissionOutcome,
  type AdmissionPlan,
  type AdmitInput,
  UsageStore,
  type UsageStoreDeps,
} from '../lambdas/core/store/usage-store';
import { bodyText, type StoreAnswer, type StoreCall, storeCallOf } from './store-calls';

/**
 * The admission write's own way to the store thread, past the SDK: `send` carries a store call to the transport
 * the SDK's store calls take (its deadline and faults included), and `retries` is a client on that transport that
 * makes the attempts left after this first one.
 */
export interface DirectAdmissionWrites {
  send(call: StoreCall): Promise<StoreAnswer>;
  retries: DynamoDBClient;
}

const CONDITION_FAILED = '#ConditionalCheckFailedException';

interface Waiting {
  input: AdmitInput;
  resolve(state: MeterState): void;
  reject(error: unknown): void;
}

/**
 * The local server's usage store. A Lambda function instance admits one request at a time; this process admits
 * every connection's, so requests of one account meet at their usage item. While an admission write to an item is
 * on its way, the requests for it that arrive wait, and then go together as one write (see `admitTogether`).
 * What a crash can lose is what it could before: each request is answered once the write that counts it is durable.
 */
// Why: docs/clever-parts.md#admissions-that-arrive-together-share-a-write
export class SharedWriteUsageStore extends UsageStore {
  /** The requests waiting for a write to their usage item to be done, by the item's key. */
  private readonly waiting = new Map<string, Waiting[]>();

  constructor(
    client: DynamoDBClient,
    tableName: string,
    deps: UsageStoreDeps,
    private readonly direct?: DirectAdmissionWrites,
  ) {
    super(client, tableName, deps);
  }

  /**
   * With `direct`, the first attempt of an admission write goes to the store thread as a store call made here,
   * not through the SDK's middleware, and its answer is read here when it is a success or a failed condition.
   * Anything else (an error, a timeout, another refusal) goes to the SDK's path on the `retries` client, whose
   * attempts, back-off and error classes decide, so the attempts in all are the SDK's number.
   */
  // Why: docs/clever-parts.md#the-admission-write-past-the-sdk
  protected override async send(plan: AdmissionPlan): Promise<AdmissionOutcome> {
    if (!this.direct) return super.send(plan);
    let answer: StoreAnswer;
    try {
      answer = await this.direct.send(storeCallOf('UpdateItem', JSON.stringify(this.admissionWrite(plan))));
    } catch {
      return super.send(plan, this.direct.retries);
    }
    const body = answer.statusCode === 200 || answer.statusCode === 400 ? readBody(answer.body) : undefined;
    if (answer.statusCode === 200) {
      if (!body) throw new Error('the store answered an admission write with a body that is not a JSON object');
      return this.counted(plan, body.Attributes);
    }
    if (typeof body?.__type === 'string' && body.__type.endsWith(CONDITION_FAILED))
      return this.refused(plan, body.Item);
    return super.send(plan, this.direct.retries);
  }

  override async admit(input: AdmitInput): Promise<MeterState> {
    const at = this.deps.clock().getTime();
    const pk = usageKey(input.accountId, monthKey(at));
    const queue = this.waiting.get(pk);
    if (queue !== undefined) return new Promise((resolve, reject) => queue.push({ input, resolve, reject }));
    this.waiting.set(pk, []);
    return this.admitOne(input, at).finally(() => this.sendWaiting(pk));
  }

  /** Sends what gathered for `pk`, one write per set of limits, and then what gathers meanwhile, until none has. */
  private sendWaiting(pk: string): void {
    const gathered = this.waiting.get(pk);
    if (gathered === undefined || gathered.length === 0) {
      this.waiting.delete(pk);
      return;
    }
    this.waiting.set(pk, []);
    const at = this.deps.clock().getTime();
    const groups = new Map<string, Waiting[]>();
    for (const waiting of gathered) {
      const { input } = waiting;
      const key = `${input.countsTowardMonth} ${input.limits.perMinute} ${effectiveLimit(input.limits)}`;
      const group = groups.get(key);
      if (group) group.push(waiting);
      else groups.set(key, [waiting]);
    }
    const sent = [...groups.values()].map(async (group) => {
      try {
        const states = await this.admitTogether(
          group.map((waiting) => waiting.input),
          at,
        );
        for (const [i, waiting] of group.entries()) waiting.resolve(states[i] as MeterState);
      } catch (error) {
        for (const waiting of group) waiting.reject(error);
      }
    });
    void Promise.all(sent).then(() => this.sendWaiting(pk));
  }

  /**
   * Admits requests of one account with the same limits as if one after the other: one write that adds their
   * number when the limits leave room for all of them, each request then given the counts it would have seen.
   * When their number is over a limit, or the write is refused, each is admitted by a write of its own, which
   * decides exactly which of them the limits leave room for.
   */
  private async admitTogether(inputs: AdmitInput[], at: number): Promise<MeterState[]> {
    const first = inputs[0] as AdmitInput;
    const n = inputs.length;
    const alone = () => Promise.all(inputs.map((input) => this.admitOne(input, at)));
    if (n === 1) return alone();
    const requestId = inputs.find((input) => input.requestId !== undefined)?.requestId;
    // Why: docs/clever-parts.md#no-spread-then-new-keys-on-the-gateways-path (the first input usually has it).
    const plan = this.plan(requestId === first.requestId ? first : { ...first, requestId }, at, n);
    // A counter not yet written passes the shared write's condition whatever its bound, so n must fit the limits.
    const { minuteLimit, monthLimit } = plan.limits;
    if (n > minuteLimit || (first.countsTowardMonth && n > monthLimit)) return alone();
    const outcome = await this.send(plan);
    if (!('counted' in outcome)) return alone();
    const last = plan.countsOf(outcome.counted);
    return inputs.map((_, i) => {
      const later = n - 1 - i;
      return plan.state('admitted', {
        minuteUsed: last.minuteUsed - later,
        monthUsed: first.countsTowardMonth ? last.monthUsed - later : last.monthUsed,
      });
    });
  }
}

interface UpdateItemAnswer {
  Attributes?: Record<string, AttributeValue>;
  Item?: Record<string, AttributeValue>;
  __type?: unknown;
}

/** The answer's JSON object; undefined for anything else, an empty body included. */
function readBody(body: string | Uint8Array): UpdateItemAnswer | undefined {
  try {
    const parsed: unknown = JSON.parse(bodyText(body));
    return typeof parsed === 'object' && parsed !== null ? (parsed as UpdateItemAnswer) : undefined;
  } catch {
    return undefined;
  }
}
