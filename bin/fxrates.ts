/** The CDK app: `npm run synth`, `npx cdk deploy --all`. Context flags are described in docs/deploying.md. */
import { App } from 'aws-cdk-lib';
import { buildApp } from '../lib/app';
import { pathWithFastNpx } from '../lib/fast-npx';

// The bundling commands CDK runs inherit this process's environment.
// Why: docs/clever-parts.md#a-faster-npx-for-bundling
process.env.PATH = pathWithFastNpx(process.env.PATH);
buildApp(new App());
