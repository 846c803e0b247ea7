/**
 * The store thread's side of store calls (store-calls.ts): each is checked and carried out by the emulator's own
 * validation and action for its operation, exactly as its HTTP listener does after reading a request, without the
 * HTTP parts around them (the authorization header's shape, the CRC of the answer, a random request id).
 */
import { createRequire } from 'node:module';
import { beginRequest } from './group-commit';
import { STORE_CALL_OPERATIONS, type StoreAnswer, type StoreCall } from './store-calls';

/** dynalite's store: what its actions and validations receive (opaque here). */
export type DynaliteStore = object;

interface DynaliteError {
  statusCode?: number;
  body?: unknown;
  message?: string;
}
type Action = (
  store: DynaliteStore,
  data: unknown,
  done: (error: DynaliteError | null, output?: unknown) => void,
) => void;
interface Validation {
  types: unknown;
  custom?: unknown;
}
interface Validations {
  toLowerFirst(name: string): string;
  checkTypes(data: unknown, types: unknown): unknown;
  checkValidations(data: unknown, types: unknown, custom: unknown, store: DynaliteStore): void;
}

const requireFromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));

/**
 * Runs `start` (which starts dynalite) and returns what it returns with the store dynalite created in it, which
 * dynalite keeps to its request listener.
 */
export function withDynaliteStore<T>(start: () => T): { started: T; store: DynaliteStore } {
  const db = requireFromDynalite('./db') as { create(options: unknown): DynaliteStore };
  const create = db.create;
  let store: DynaliteStore | undefined;
  db.create = (options) => {
    store = create(options);
    return store;
  };
  try {
    const started = start();
    if (!store) throw new Error('dynalite started without creating its store');
    return { started, store };
  } finally {
    db.create = create;
  }
}

const JSON_TYPE = { 'content-type': 'application/x-amz-json-1.0' };

function errorAnswer(statusCode: number, body: unknown): StoreAnswer {
  return { statusCode, headers: JSON_TYPE, body: JSON.stringify(body) };
}

/** A refusal dynalite made (with its status and body), or an error of its own code: DynamoDB's 500. */
function refusal(error: DynaliteError): StoreAnswer {
  if (error.statusCode) return errorAnswer(error.statusCode, error.body);
  return errorAnswer(500, {
    __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
    message: String(error.message),
  });
}

function answerOf(error: DynaliteError | null, output?: unknown): StoreAnswer {
  return error ? refusal(error) : { statusCode: 200, headers: JSON_TYPE, body: JSON.stringify(output) };
}

function failedWrite(body: string): StoreAnswer {
  return { statusCode: 500, headers: JSON_TYPE, body };
}

/**
 * Answers store calls on `store`. With `durable`, each answer waits until everything written so far is on disk
 * (group commit), as the HTTP listener's answers do, and becomes a 500 if a batch failed while the call was under
 * way.
 */
export function storeCallAnswerer(store: DynaliteStore, durable: boolean): (call: StoreCall) => Promise<StoreAnswer> {
  const validations = requireFromDynalite('./validations') as Validations;
  const actions = new Map<string, { action: Action; validation: Validation }>();
  for (const operation of STORE_CALL_OPERATIONS) {
    const name = validations.toLowerFirst(operation);
    actions.set(operation, {
      action: requireFromDynalite(`./actions/${name}`) as Action,
      validation: requireFromDynalite(`./validations/${name}`) as Validation,
    });
  }
  return (call) => {
    const known = actions.get(call.operation);
    if (!known)
      return Promise.resolve(errorAnswer(400, { __type: 'com.amazon.coral.service#UnknownOperationException' }));
    let data: unknown;
    try {
      data = validations.checkTypes(JSON.parse(call.body), known.validation.types);
      validations.checkValidations(data, known.validation.types, known.validation.custom, store);
    } catch (error) {
      if (error instanceof SyntaxError) {
        return Promise.resolve(errorAnswer(400, { __type: 'com.amazon.coral.service#SerializationException' }));
      }
      return Promise.resolve(refusal(error as DynaliteError));
    }
    return new Promise<StoreAnswer>((resolve) => {
      if (!durable) {
        known.action(store, data, (error, output) => resolve(answerOf(error, output)));
        return;
      }
      // The action is where the call reads and writes, so it is under way from here (group-commit.ts).
      const request = beginRequest();
      try {
        known.action(store, data, (error, output) => {
          // A refusal, too, may rest on writes not on disk yet (the count that reached a plan's limit, say).
          const answer = answerOf(error, output);
          resolve(request.settle(() => answer, failedWrite));
        });
      } catch (error) {
        request.end();
        throw error;
      }
    });
  };
}
