import { type App, type Environment, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { type DeployConfig, readDeployConfig } from './config';
import { DataStack, ServiceStack } from './stacks';
import { stackIds } from './stage';

export { STACK_IDS } from './stage';

export interface FxratesApp {
  config: DeployConfig;
  data: DataStack;
  service: ServiceStack;
}

export interface BuildOptions {
  /** Pins both stacks to an environment; the tests use it to synthesize stages in named regions. */
  env?: Environment;
}

/**
 * Adds the whole service to an app: `bin/fxrates.ts` for the CLI, the infra tests for assertions. Stacks are
 * environment-agnostic unless `env` is given: they deploy to the account and region of the credentials
 * `cdk deploy` runs with, and synthesize without any. The context `stage` names them (lib/stage.ts).
 */
export function buildApp(app: App, options: BuildOptions = {}): FxratesApp {
  const config = readDeployConfig((key) => app.node.tryGetContext(key));
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const ids = stackIds(config.stage);
  const env = options.env ? { env: options.env } : {};
  const description = `fxrates: currency exchange rate API${config.stage === undefined ? '' : ` (stage ${config.stage})`}`;
  const data = new DataStack(app, ids.data, {
    description: `${description} (tables, dashboard users)`,
    config,
    ...env,
  });
  const service = new ServiceStack(app, ids.service, {
    ...env,
    description: `${description} (API, ingestion, account dashboard, monitoring)`,
    data: data.data,
    users: data.users,
    config,
  });
  return { config, data, service };
}
