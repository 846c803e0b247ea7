/**
 * Stands in for `@aws-sdk/credential-provider-node` inside the function bundles (an esbuild alias, see
 * lib/bundling.ts). On Lambda the execution role's credentials are environment variables, the first link of the
 * SDK's default chain and the only one a function ever reaches. The other links (shared files, SSO, web
 * identity, process, container and instance metadata, with their nested STS/SSO clients) would be loaded at every
 * cold start and never run. Local runs are not bundled and keep the SDK's full chain.
 *
 * The SDK's clients import `defaultProvider` from that package; here it is the chain's environment link alone,
 * the SDK's own `fromEnv`.
 */
// Why: docs/clever-parts.md#credential-provider-alias
import { type FromEnvInit, fromEnv } from '@aws-sdk/credential-provider-env';

export class MissingEnvironmentCredentialsError extends Error {
  constructor(options?: ErrorOptions) {
    super('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set; Lambda sets them from the execution role', options);
    this.name = 'MissingEnvironmentCredentialsError';
  }
}

/** The SDK's entry point: a factory taking the client's config and returning a provider of the environment's keys. */
export function defaultProvider(init?: FromEnvInit): ReturnType<typeof fromEnv> {
  const fromEnvironment = fromEnv(init);
  return async (options) => {
    try {
      return await fromEnvironment(options);
    } catch (cause) {
      throw new MissingEnvironmentCredentialsError({ cause });
    }
  };
}
