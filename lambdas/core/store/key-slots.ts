/**
 * The account's key-slot counter: the conditional writes that reserve a slot for a new key (under every plan's key
 * limit and the dashboard's creation limit), give one back, and drop creation times that left the window.
 */
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PLAN_IDS, PLANS } from '../domain/plans';
import type { CreationAttempt } from './account-errors';
import { KEY_CREATED_AT } from './account-items';
import { isConditionFailure } from './clients';
import { accountKey } from './tables';

/** The accounts table as the writes need it. */
export interface AccountsTable {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
}

/** The clock-hour counter of key creations that `key_created_at` replaced; a dashboard creation removes it. */
const LEGACY_KEY_CREATIONS = 'key_creations';

/** Plans with a key limit, each becoming one clause of the reservation condition. */
const LIMITED_PLANS = PLAN_IDS.flatMap((plan) => {
  const max = PLANS[plan].maxActiveKeys;
  return max === null ? [] : [{ plan, max }];
});

/**
 * The reservation, one update whose condition carries every plan's key limit; false when refused (nothing written).
 * With a creation limit, it also appends the creation's time to `key_created_at`, admitted only while that list
 * (the latest creations) holds fewer than `max` times, so concurrent creations are admitted exactly up to the limit.
 */
export async function reserveKeySlot(
  table: AccountsTable,
  accountId: string,
  creation?: CreationAttempt,
): Promise<boolean> {
  const names: Record<string, string> = { '#status': 'status', '#verified': 'verified', '#keys': 'active_keys' };
  const values: Record<string, unknown> = { ':active': 'active', ':true': true, ':one': 1 };
  const limits = LIMITED_PLANS.map(({ plan, max }, i) => {
    values[`:plan${i}`] = plan;
    values[`:max${i}`] = max;
    return `(#plan <> :plan${i} OR #keys < :max${i})`;
  });
  if (limits.length > 0) names['#plan'] = 'plan';
  let update = 'SET #keys = #keys + :one';
  if (creation) {
    names['#created'] = KEY_CREATED_AT;
    names['#legacy'] = LEGACY_KEY_CREATIONS;
    values[':now'] = [creation.now];
    values[':none'] = [];
    values[':kmax'] = creation.limit.max;
    update += ', #created = list_append(if_not_exists(#created, :none), :now) REMOVE #legacy';
    limits.push('(attribute_not_exists(#created) OR size(#created) < :kmax)');
  }
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: { pk: accountKey(accountId) },
        UpdateExpression: update,
        ConditionExpression: ['attribute_exists(pk)', '#verified = :true', '#status = :active', ...limits].join(
          ' AND ',
        ),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Removes the creation times that have left the window. Each removed position is checked to hold such a time when
 * the write applies, so a concurrent removal or creation can only make this write fail, never remove a time still in
 * the window; a failure is left to the next attempt, which reads the list again. Positions rather than the list's
 * head: times written by functions whose clocks differ slightly need not be in order.
 */
export async function dropStaleCreations(
  table: AccountsTable,
  accountId: string,
  createdAt: readonly number[],
  creation: CreationAttempt,
): Promise<void> {
  const cutoff = creation.now - creation.limit.windowMs;
  // Highest position first: DynamoDB reads every position of one REMOVE against the list as it was, while the
  // local server's emulator removes them one after another; in this order both remove the same elements.
  const positions = createdAt.flatMap((at, i) => (at <= cutoff ? [`#created[${i}]`] : [])).reverse();
  if (positions.length === 0) return;
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: { pk: accountKey(accountId) },
        UpdateExpression: `REMOVE ${positions.join(', ')}`,
        ConditionExpression: ['attribute_exists(pk)', ...positions.map((p) => `${p} <= :cutoff`)].join(' AND '),
        ExpressionAttributeNames: { '#created': KEY_CREATED_AT },
        ExpressionAttributeValues: { ':cutoff': cutoff },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

export async function releaseKeySlot(table: AccountsTable, accountId: string): Promise<void> {
  try {
    await table.client.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: { pk: accountKey(accountId) },
        UpdateExpression: 'SET #keys = #keys - :one',
        ConditionExpression: 'attribute_exists(pk) AND #keys > :zero',
        ExpressionAttributeNames: { '#keys': 'active_keys' },
        ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
      }),
    );
  } catch (error) {
    // A counter already at zero stays there rather than going negative.
    if (!isConditionFailure(error)) throw error;
  }
}
