import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { type DeployConfig, readDeployConfig } from './config';
import { DataStack, ServiceStack } from './stacks';

export const STACK_IDS = { data: 'FxratesData', service: 'FxratesService' } as const;

export interface FxratesApp {
  config: DeployConfig;
  data: DataStack;
  service: ServiceStack;
}

/**
 * Adds the whole service to an app: `bin/fxrates.ts` for the CLI, the infra tests for assertions. Stacks are
 * environment-agnostic: they deploy to the account and region of the credentials `cdk deploy` runs with, and
 * synthesize without any.
 */
export function buildApp(app: App): FxratesApp {
  const config = readDeployConfig((key) => app.node.tryGetContext(key));
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  const description = 'fxrates: currency exchange rate API';
  const data = new DataStack(app, STACK_IDS.data, { description: `${description} (tables, dashboard users)`, config });
  const service = new ServiceStack(app, STACK_IDS.service, {
    description: `${description} (API, ingestion, account dashboard, monitoring)`,
    data: data.data,
    users: data.users,
    config,
  });
  return { config, data, service };
}
