/** The account's key-slot counter: reserve a slot for a new key, give one back, drop expired creation times. */
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PLAN_IDS, PLANS } from '../domain/plans';
import type { CreationAttempt } from './account-errors';
import { KEY_CREATED_AT } from './account-items';
import { isConditionFailure } from './clients';
import { accountKey } from './tables';

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

/** One conditional update, so concurrent creations are admitted exactly up to both limits; false when refused. */
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
 * Each removed position is checked to hold an expired time when the write applies, so a race only fails the write.
 * Positions, not the head: functions whose clocks differ slightly need not write in order.
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
