/** The CDK app: `npm run synth`, `npx cdk deploy --all`. Context flags are described in docs/deploying.md. */
import { App } from 'aws-cdk-lib';
import { buildApp } from '../lib/app';

buildApp(new App());
