import { randomBytes } from 'node:crypto';
import { GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { accountIdForOwner, hashApiKey, isWellFormedApiKey, KEY_PREFIX } from '../../../lambdas/core/domain/api-key';
import { formatTimestamp } from '../../../lambdas/core/domain/dates';
import * as accounts from '../../../lambdas/core/store/accounts-store';
import { backends, freshTables, type TestTables } from '../../support/backends';

describe.each(backends())('AccountsStore on $name', (backend) => {
  let tables: TestTables;
  let store: accounts.AccountsStore;
  let now = new Date('2026-09-30T10:00:00.123Z');

  beforeAll(async () => {
    tables = await freshTables(backend);
    store = new accounts.AccountsStore(tables.client, tables.accountsTable, {
      clock: () => now,
      randomBytes: (n) => randomBytes(n),
    });
  });

  const rawItem = async (pk: string) =>
    (await tables.client.send(new GetCommand({ TableName: tables.accountsTable, Key: { pk }, ConsistentRead: true })))
      .Item;

  const verifiedAccount = (plan: 'free' | 'pro' | 'business') => store.createAccount({ plan, verified: true });

  describe('accounts', () => {
    it('creates an active account with a random URL-safe id and reads it back', async () => {
      const created = await store.createAccount({
        plan: 'pro',
        email: 'ops@example.com',
        verified: false,
        overrides: { monthlyLimit: 50_000, overflowPercent: 15 },
      });
      expect(created.accountId).toMatch(/^acc_[0-9A-Za-z]{16}$/);
      expect(created).toMatchObject({ plan: 'pro', status: 'active', verified: false, activeKeys: 0 });
      expect(created.createdAt).toBe(formatTimestamp(now));
      expect(await store.getAccount(created.accountId)).toEqual(created);
    });

    it('stores the record under ACCOUNT#<id> with snake_case attributes and the overrides', async () => {
      const created = await store.createAccount({ plan: 'free', verified: true, overrides: { perMinute: 3 } });
      const item = await rawItem(`ACCOUNT#${created.accountId}`);
      expect(item).toMatchObject({
        account_id: created.accountId,
        plan: 'free',
        status: 'active',
        verified: true,
        active_keys: 0,
        overrides: { per_minute: 3 },
      });
      expect(item?.overrides).not.toHaveProperty('monthly_limit');
    });

    it('gives every account a distinct id', async () => {
      const ids = await Promise.all(Array.from({ length: 5 }, () => verifiedAccount('free')));
      expect(new Set(ids.map((a) => a.accountId)).size).toBe(5);
    });

    it('creates an account under a chosen id once and refuses the same id again', async () => {
      const id = `demo-${randomBytes(4).toString('hex')}`;
      expect((await store.createAccount({ plan: 'business', verified: true, accountId: id })).accountId).toBe(id);
      await expect(store.createAccount({ plan: 'free', verified: true, accountId: id })).rejects.toThrow(
        accounts.AccountExistsError,
      );
      expect((await store.getAccount(id)).plan).toBe('business');
    });

    it('refuses overrides outside their ranges and malformed emails', async () => {
      await expect(
        store.createAccount({ plan: 'pro', verified: true, overrides: { overflowPercent: 101 } }),
      ).rejects.toThrow(accounts.InvalidAccountInputError);
      await expect(
        store.createAccount({ plan: 'pro', verified: true, overrides: { monthlyLimit: 0 } }),
      ).rejects.toThrow(accounts.InvalidAccountInputError);
      await expect(store.createAccount({ plan: 'pro', verified: true, email: 'not-an-email' })).rejects.toThrow(
        /email/,
      );
    });

    it('suspends, resumes, verifies and changes the plan, returning the updated record', async () => {
      const { accountId } = await store.createAccount({ plan: 'free', verified: false });
      expect((await store.setStatus(accountId, 'suspended')).status).toBe('suspended');
      expect((await store.getAccount(accountId)).status).toBe('suspended');
      expect((await store.setStatus(accountId, 'active')).status).toBe('active');
      expect((await store.verify(accountId)).verified).toBe(true);
      const upgraded = await store.setPlan(accountId, 'business');
      expect(upgraded).toMatchObject({ plan: 'business', verified: true, status: 'active' });
    });

    it('answers UnknownAccountError for every operation on an unknown id and creates nothing', async () => {
      const ghost = 'acc_doesnotexist0000';
      await expect(store.getAccount(ghost)).rejects.toThrow(accounts.UnknownAccountError);
      await expect(store.setStatus(ghost, 'suspended')).rejects.toThrow(accounts.UnknownAccountError);
      await expect(store.verify(ghost)).rejects.toThrow(accounts.UnknownAccountError);
      await expect(store.setPlan(ghost, 'pro')).rejects.toThrow(accounts.UnknownAccountError);
      await expect(store.createKey(ghost)).rejects.toThrow(accounts.UnknownAccountError);
      await expect(store.listKeys(ghost)).rejects.toThrow(accounts.UnknownAccountError);
      expect(await store.findAccount(ghost)).toBeUndefined();
      expect(await rawItem(`ACCOUNT#${ghost}`)).toBeUndefined();
    });
  });

  describe('keys', () => {
    it('creates a well-formed key and stores only its SHA-256, never the key', async () => {
      const { accountId } = await verifiedAccount('free');
      const created = await store.createKey(accountId, 'ci');
      expect(isWellFormedApiKey(created.key)).toBe(true);
      expect(created.key.startsWith(KEY_PREFIX)).toBe(true);
      expect(created.keyId).toMatch(/^key_[0-9A-Za-z]{16}$/);

      const item = await rawItem(`KEY#${hashApiKey(created.key)}`);
      expect(item).toEqual({
        pk: `KEY#${hashApiKey(created.key)}`,
        key_id: created.keyId,
        key_account_id: accountId,
        name: 'ci',
        created_at: formatTimestamp(now),
        key_prefix: created.key.slice(0, KEY_PREFIX.length + 4),
      });
      const scan = await tables.client.send(new ScanCommand({ TableName: tables.accountsTable }));
      const everything = JSON.stringify(scan.Items);
      expect(everything).not.toContain(created.key);
      expect(everything).not.toContain(created.key.slice(KEY_PREFIX.length));
    });

    it('finds a key by its hash in one lookup and ignores unknown or malformed hashes', async () => {
      const { accountId } = await verifiedAccount('pro');
      const created = await store.createKey(accountId);
      expect(await store.findKeyByHash(hashApiKey(created.key))).toEqual({
        keyId: created.keyId,
        accountId,
        name: 'default',
        createdAt: created.record.createdAt,
        prefix: created.record.prefix,
      });
      expect(await store.findKeyByHash(hashApiKey(`${created.key}x`))).toBeUndefined();
      expect(await store.findKeyByHash(created.key)).toBeUndefined();
    });

    it('refuses keys for unverified and for suspended accounts without touching the counter', async () => {
      const unverified = await store.createAccount({ plan: 'pro', verified: false });
      await expect(store.createKey(unverified.accountId)).rejects.toThrow(accounts.AccountNotVerifiedError);
      const suspended = await verifiedAccount('pro');
      await store.setStatus(suspended.accountId, 'suspended');
      await expect(store.createKey(suspended.accountId)).rejects.toThrow(accounts.AccountSuspendedError);
      expect((await store.getAccount(unverified.accountId)).activeKeys).toBe(0);
      expect((await store.getAccount(suspended.accountId)).activeKeys).toBe(0);
    });

    it('refuses a second active key on Free and allows one again after the first is revoked', async () => {
      const { accountId } = await verifiedAccount('free');
      const first = await store.createKey(accountId);
      await expect(store.createKey(accountId)).rejects.toThrow(accounts.KeyLimitReachedError);
      await expect(store.createKey(accountId)).rejects.toThrow(/Free plan allows/);
      await store.revokeKey(first.keyId);
      const second = await store.createKey(accountId);
      expect(second.keyId).not.toBe(first.keyId);
      expect((await store.getAccount(accountId)).activeKeys).toBe(1);
    });

    it('admits exactly one of 10 parallel key creations on a Free account', async () => {
      const { accountId } = await verifiedAccount('free');
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => store.createKey(accountId, `k${i}`)),
      );
      const fulfilled = results.filter((r) => r.status === 'fulfilled');
      const rejected = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(fulfilled).toHaveLength(1);
      expect(rejected).toHaveLength(9);
      for (const reason of rejected) expect(reason).toBeInstanceOf(accounts.KeyLimitReachedError);
      expect((await store.getAccount(accountId)).activeKeys).toBe(1);
      expect(await store.listKeys(accountId)).toHaveLength(1);
    });

    it('admits all of 10 parallel key creations on Pro and counts every one', async () => {
      const { accountId } = await verifiedAccount('pro');
      const created = await Promise.all(Array.from({ length: 10 }, (_, i) => store.createKey(accountId, `k${i}`)));
      expect(new Set(created.map((c) => c.key)).size).toBe(10);
      expect((await store.getAccount(accountId)).activeKeys).toBe(10);
      expect(await store.listKeys(accountId)).toHaveLength(10);
    });

    it("lists an account's keys oldest first, revoked ones included, and no other account's keys", async () => {
      const { accountId } = await verifiedAccount('business');
      const other = await verifiedAccount('business');
      await store.createKey(other.accountId, 'other');
      now = new Date('2026-09-30T10:00:01Z');
      const a = await store.createKey(accountId, 'a');
      now = new Date('2026-09-30T10:00:02Z');
      const b = await store.createKey(accountId, 'b');
      now = new Date('2026-09-30T10:00:03Z');
      await store.revokeKey(a.keyId);
      const keys = await store.listKeys(accountId);
      expect(keys).toEqual([
        {
          keyId: a.keyId,
          accountId,
          name: 'a',
          createdAt: '2026-09-30T10:00:01Z',
          revokedAt: '2026-09-30T10:00:03Z',
          prefix: a.record.prefix,
        },
        { keyId: b.keyId, accountId, name: 'b', createdAt: '2026-09-30T10:00:02Z', prefix: b.record.prefix },
      ]);
    });

    it('revokes a key by id, records when, and gives the slot back', async () => {
      const { accountId } = await verifiedAccount('free');
      const created = await store.createKey(accountId);
      now = new Date('2026-10-01T08:30:00Z');
      const result = await store.revokeKey(created.keyId);
      expect(result).toEqual({ key: { ...created.record, revokedAt: '2026-10-01T08:30:00Z' }, alreadyRevoked: false });
      expect((await store.findKeyByHash(hashApiKey(created.key)))?.revokedAt).toBe('2026-10-01T08:30:00Z');
      expect((await store.getAccount(accountId)).activeKeys).toBe(0);
    });

    it('treats revoking a revoked key as a no-op that keeps the first revocation time and the counter', async () => {
      const { accountId } = await verifiedAccount('pro');
      const keep = await store.createKey(accountId, 'keep');
      const drop = await store.createKey(accountId, 'drop');
      now = new Date('2026-10-02T00:00:00Z');
      await store.revokeKey(drop.keyId);
      now = new Date('2026-10-03T00:00:00Z');
      const again = await store.revokeKey(drop.keyId);
      expect(again.alreadyRevoked).toBe(true);
      expect(again.key.revokedAt).toBe('2026-10-02T00:00:00Z');
      expect((await store.getAccount(accountId)).activeKeys).toBe(1);
      expect((await store.findKeyByHash(hashApiKey(keep.key)))?.revokedAt).toBeUndefined();
    });

    it('gives the slot back exactly once when the same key is revoked in parallel', async () => {
      const { accountId } = await verifiedAccount('pro');
      await store.createKey(accountId, 'stays');
      const target = await store.createKey(accountId, 'goes');
      const results = await Promise.all(Array.from({ length: 5 }, () => store.revokeKey(target.keyId)));
      expect(results.filter((r) => !r.alreadyRevoked)).toHaveLength(1);
      expect((await store.getAccount(accountId)).activeKeys).toBe(1);
    });

    it('answers UnknownKeyError when revoking a key id that does not exist', async () => {
      await expect(store.revokeKey('key_doesnotexist0000')).rejects.toThrow(accounts.UnknownKeyError);
    });

    it('refuses a downgrade to Free while more keys are active than Free allows, changing nothing', async () => {
      const { accountId } = await verifiedAccount('pro');
      const keys = [await store.createKey(accountId, 'one'), await store.createKey(accountId, 'two')];
      keys.push(await store.createKey(accountId, 'three'));
      const refusal = store.setPlan(accountId, 'free');
      await expect(refusal).rejects.toThrow(accounts.TooManyKeysForPlanError);
      await expect(refusal).rejects.toThrow(
        `Account '${accountId}' has 3 active keys; the Free plan allows 1. Revoke 2 of them (npm run admin -- key list --account ${accountId}) and change the plan again.`,
      );
      expect(await store.getAccount(accountId)).toMatchObject({ plan: 'pro', activeKeys: 3 });
      for (const key of keys) expect((await store.findKeyByHash(hashApiKey(key.key)))?.revokedAt).toBeUndefined();

      await store.revokeKey(keys[0]?.keyId ?? '');
      await expect(store.setPlan(accountId, 'free')).rejects.toThrow(
        'has 2 active keys; the Free plan allows 1. Revoke 1',
      );
      await store.revokeKey(keys[1]?.keyId ?? '');
      expect(await store.setPlan(accountId, 'free')).toMatchObject({ plan: 'free', activeKeys: 1 });
      await expect(store.createKey(accountId)).rejects.toThrow(
        `Account '${accountId}' has 1 active key; the Free plan allows 1. Revoke it`,
      );
      await store.revokeKey(keys[2]?.keyId ?? '');
      await expect(store.createKey(accountId, 'four')).resolves.toMatchObject({ record: { name: 'four' } });
    });

    it('lets exactly one of a downgrade and a key creation racing it through when one key is active', async () => {
      const { accountId } = await verifiedAccount('pro');
      await store.createKey(accountId, 'one');
      const [downgrade, created] = await Promise.allSettled([
        store.setPlan(accountId, 'free'),
        store.createKey(accountId, 'two'),
      ]);
      const account = await store.getAccount(accountId);
      // Either the plan changed first (the key is refused) or the key came first (the plan is refused): never both.
      expect([downgrade.status, created.status].filter((status) => status === 'fulfilled')).toHaveLength(1);
      expect(account.activeKeys).toBe(account.plan === 'free' ? 1 : 2);
    });

    it('refuses empty or overlong key names', async () => {
      const { accountId } = await verifiedAccount('pro');
      await expect(store.createKey(accountId, '   ')).rejects.toThrow(accounts.InvalidAccountInputError);
      await expect(store.createKey(accountId, 'x'.repeat(65))).rejects.toThrow(accounts.InvalidAccountInputError);
      expect((await store.getAccount(accountId)).activeKeys).toBe(0);
    });
  });

  describe('dashboard accounts', () => {
    const owner = () => {
      const sub = `sub-${randomBytes(6).toString('hex')}`;
      return { sub, email: `${sub}@example.com` };
    };

    it("creates a verified Free account under an id derived from the person's sub, once", async () => {
      const person = owner();
      const created = await store.provisionOwnedAccount(person);
      expect(created).toMatchObject({
        accountId: accountIdForOwner(person.sub),
        plan: 'free',
        status: 'active',
        verified: true,
        email: person.email,
        owner: person.sub,
        activeKeys: 0,
      });
      expect(await store.provisionOwnedAccount(person)).toEqual(created);
      expect(await rawItem(`ACCOUNT#${created.accountId}`)).toMatchObject({ owner: person.sub, email: person.email });
    });

    it('gives ten concurrent first requests of one person the same single account', async () => {
      const person = owner();
      const results = await Promise.all(Array.from({ length: 10 }, () => store.provisionOwnedAccount(person)));
      expect(new Set(results.map((a) => a.accountId))).toEqual(new Set([accountIdForOwner(person.sub)]));
      expect(new Set(results.map((a) => a.createdAt)).size).toBe(1);
    });

    it("refuses to hand out an account whose stored owner is someone else's", async () => {
      const person = owner();
      await store.createAccount({ plan: 'pro', verified: true, accountId: accountIdForOwner(person.sub) });
      await expect(store.provisionOwnedAccount(person)).rejects.toThrow(/belongs to another owner/);
    });

    it('keeps the non-secret prefix of a new key and never the key', async () => {
      const { accountId } = await store.provisionOwnedAccount(owner());
      const created = await store.createKey(accountId, 'laptop');
      expect(created.record.prefix).toBe(created.key.slice(0, KEY_PREFIX.length + 4));
      const item = await rawItem(`KEY#${hashApiKey(created.key)}`);
      expect(item?.key_prefix).toBe(created.record.prefix);
      expect(JSON.stringify(item)).not.toContain(created.key);
      expect((await store.listKeys(accountId))[0]?.prefix).toBe(created.record.prefix);
    });

    it("answers another account's key id as unknown and leaves that key active", async () => {
      const mine = await store.provisionOwnedAccount(owner());
      const theirs = await store.provisionOwnedAccount(owner());
      const theirKey = await store.createKey(theirs.accountId, 'theirs');
      await expect(store.revokeKey(theirKey.keyId, { accountId: mine.accountId })).rejects.toThrow(
        accounts.UnknownKeyError,
      );
      expect((await store.listKeys(theirs.accountId))[0]?.revokedAt).toBeUndefined();
      const revoked = await store.revokeKey(theirKey.keyId, { accountId: theirs.accountId });
      expect(revoked.alreadyRevoked).toBe(false);
    });

    describe('the rolling creation limit', () => {
      const HOUR = 3_600_000;
      const limit = { max: 10, windowMs: HOUR };
      const at = (iso: string) => {
        now = new Date(iso);
      };
      const create = (accountId: string, name: string) => store.createKey(accountId, name, { creationLimit: limit });
      const businessAccount = async () => {
        const { accountId } = await store.provisionOwnedAccount(owner());
        await store.setPlan(accountId, 'business');
        return accountId;
      };
      const refusalOf = async (attempt: Promise<unknown>) => {
        const error = await attempt.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(accounts.KeyCreationLimitedError);
        return error as InstanceType<typeof accounts.KeyCreationLimitedError>;
      };

      it('admits 10 keys in a minute, refuses the 11th until the oldest leaves the window, then admits it exactly then', async () => {
        const accountId = await businessAccount();
        for (let i = 0; i < 10; i++) {
          at(`2026-09-30T10:00:${String(i * 5).padStart(2, '0')}.000Z`);
          await create(accountId, `k${i}`);
        }
        at('2026-09-30T10:01:00.000Z');
        const refused = await refusalOf(create(accountId, 'eleventh'));
        expect(refused.retryAfterSeconds).toBe(59 * 60);
        expect(refused.message).toBe(
          'At most 10 keys can be created in any 60 minutes; the next can be created in 59 minutes.',
        );
        at('2026-09-30T10:59:59.999Z');
        expect((await refusalOf(create(accountId, 'a moment early'))).retryAfterSeconds).toBe(1);
        at('2026-09-30T11:00:00.000Z');
        await expect(create(accountId, 'on the dot')).resolves.toMatchObject({ record: { name: 'on the dot' } });
        // The window now runs from the second creation, 10:00:05.
        expect((await refusalOf(create(accountId, 'right after'))).retryAfterSeconds).toBe(5);
        const account = await store.getAccount(accountId);
        expect(account.activeKeys).toBe(11);
        expect(account.keyCreatedAt).toHaveLength(10);
        expect((await store.listKeys(accountId)).map((k) => k.name)).not.toContain('eleventh');
      });

      it("lets no more than 10 through across an hour's edge", async () => {
        const accountId = await businessAccount();
        for (let i = 0; i < 10; i++) {
          at(`2026-09-30T10:59:5${i}.000Z`);
          await create(accountId, `before ${i}`);
        }
        for (const iso of ['2026-09-30T11:00:00.000Z', '2026-09-30T11:00:13.000Z', '2026-09-30T11:59:49.999Z']) {
          at(iso);
          await refusalOf(create(accountId, 'after the edge'));
        }
        at('2026-09-30T11:59:50.000Z');
        await expect(create(accountId, 'an hour after the first')).resolves.toBeDefined();
        expect((await store.getAccount(accountId)).activeKeys).toBe(11);
      });

      it('admits exactly 10 of 15 concurrent creations, on a fresh window and on one whose times have all left it', async () => {
        const accountId = await businessAccount();
        const burst = async (label: string) => {
          const results = await Promise.allSettled(
            Array.from({ length: 15 }, (_, i) => create(accountId, `${label} ${i}`)),
          );
          const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
          expect(refused.every((reason) => reason instanceof accounts.KeyCreationLimitedError)).toBe(true);
          return results.filter((r) => r.status === 'fulfilled').length;
        };
        at('2026-09-30T12:00:00.000Z');
        expect(await burst('first')).toBe(10);
        at('2026-09-30T13:00:00.000Z');
        expect(await burst('second')).toBe(10);
        expect((await store.listKeys(accountId)).length).toBe(20);
        const account = await store.getAccount(accountId);
        expect(account.activeKeys).toBe(20);
        expect(account.keyCreatedAt).toEqual(Array.from({ length: 10 }, () => now.getTime()));
      });

      it("counts no creation the plan's key limit refuses, and reports that limit first", async () => {
        const { accountId } = await store.provisionOwnedAccount(owner());
        at('2026-09-30T14:00:00.000Z');
        const first = await create(accountId, 'only');
        for (let i = 0; i < 12; i++) {
          await expect(create(accountId, `refused ${i}`)).rejects.toThrow(accounts.KeyLimitReachedError);
        }
        expect((await store.getAccount(accountId)).keyCreatedAt).toEqual([now.getTime()]);
        await store.revokeKey(first.keyId);
        await expect(create(accountId, 'after revoking')).resolves.toBeDefined();
      });

      it('replaces the clock-hour counter of earlier versions on the first creation', async () => {
        const accountId = await businessAccount();
        await tables.client.send(
          new UpdateCommand({
            TableName: tables.accountsTable,
            Key: { pk: `ACCOUNT#${accountId}` },
            UpdateExpression: 'SET key_creations = :old',
            ExpressionAttributeValues: { ':old': 494_000_010 },
          }),
        );
        at('2026-09-30T15:00:00.000Z');
        await create(accountId, 'after the upgrade');
        const item = await rawItem(`ACCOUNT#${accountId}`);
        expect(item?.key_creations).toBeUndefined();
        expect(item?.key_created_at).toEqual([now.getTime()]);
      });

      it('leaves the account untouched by operator creations, which have no limit', async () => {
        const accountId = await businessAccount();
        for (let i = 0; i < 12; i++) await store.createKey(accountId, `operator ${i}`);
        expect((await store.getAccount(accountId)).keyCreatedAt).toBeUndefined();
      });
    });
  });
});
