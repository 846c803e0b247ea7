/**
 * Stands in for `@aws-sdk/credential-provider-node` inside the function bundles (an esbuild alias, see
 * bundling.ts). On Lambda the execution role's credentials are environment variables, the first link of the
 * SDK's default chain and the only one a function ever reaches. The other links (shared files, SSO, web
 * identity, process, container and instance metadata, with their nested STS/SSO clients) add about 135 KB that
 * every cold start would parse and never run. Local runs are not bundled and keep the SDK's full chain.
 */
export interface EnvironmentCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  accountId?: string;
}

export class MissingEnvironmentCredentialsError extends Error {
  constructor() {
    super('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set; Lambda sets them from the execution role');
    this.name = 'MissingEnvironmentCredentialsError';
  }
}

export function credentialsFromEnvironment(env: NodeJS.ProcessEnv): EnvironmentCredentials {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) throw new MissingEnvironmentCredentialsError();
  const credentials: EnvironmentCredentials = { accessKeyId, secretAccessKey };
  if (env.AWS_SESSION_TOKEN) credentials.sessionToken = env.AWS_SESSION_TOKEN;
  if (env.AWS_ACCOUNT_ID) credentials.accountId = env.AWS_ACCOUNT_ID;
  return credentials;
}

/** The SDK's entry point: a factory taking the client's config (unused) and returning a provider. */
export function defaultProvider(_init?: unknown): () => Promise<EnvironmentCredentials> {
  return async () => credentialsFromEnvironment(process.env);
}
