import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { type Account, type ApiKeyRecord, accountFromItem, keyFromItem } from './account-items';
import { accountKey, apiKeyKey } from './tables';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The authorizer's side of the accounts table, so it bundles none of AccountsStore's management. */
export class AccountsReadStore {
  constructor(
    protected readonly client: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {}

  /** The authorizer's lookup: one GetItem by the key's SHA-256. Malformed hashes are answered without a read. */
  async findKeyByHash(sha256: string): Promise<ApiKeyRecord | undefined> {
    if (!SHA256_HEX.test(sha256)) return undefined;
    const out = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: apiKeyKey(sha256) } }));
    return out.Item ? keyFromItem(out.Item) : undefined;
  }

  async findAccount(accountId: string, options: { consistent?: boolean } = {}): Promise<Account | undefined> {
    const out = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: accountKey(accountId) },
        ConsistentRead: options.consistent ?? false,
      }),
    );
    return out.Item ? accountFromItem(out.Item) : undefined;
  }
}
