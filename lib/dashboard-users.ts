import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { DASHBOARD_TOKEN_VALIDITY } from '../lambdas/core/http/dashboard-routes';
import { PASSWORD_POLICY } from '../web/src/password-policy';
import { parseSesIdentityArn } from './config';

/** How long a sign-in lasts: the ID token the dashboard API checks, and the refresh token the page may renew it with. */
export const TOKEN_VALIDITY = {
  idToken: Duration.hours(DASHBOARD_TOKEN_VALIDITY.idTokenHours),
  accessToken: Duration.hours(DASHBOARD_TOKEN_VALIDITY.accessTokenHours),
  refreshToken: Duration.days(DASHBOARD_TOKEN_VALIDITY.refreshTokenDays),
} as const;

export interface DashboardUsersProps {
  /**
   * Send the pool's e-mail through Amazon SES as `fromAddress`, under the verified identity `identityArn`; without
   * it Cognito's built-in sender is used, which allows only a few messages a day (docs/operating.md: "The dashboard's e-mail").
   */
  ses?: { fromAddress: string; identityArn: string } | undefined;
}

/**
 * The people who hold dashboard accounts: an Amazon Cognito user pool, with the e-mail address as the user name,
 * self sign-up and a verification code by e-mail, and the app client the page signs in with.
 *
 * The pool holds state nothing else can rebuild (the people, their passwords, and the `sub` each account records
 * as its owner), so it lives beside the tables in the data stack and is retained when its stack is deleted: a new
 * pool would give everyone a new `sub`, leaving every dashboard account without its owner.
 */
export class DashboardUsers extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;

  constructor(scope: Construct, id: string, props: DashboardUsersProps = {}) {
    super(scope, id);
    const ses = props.ses && { ...props.ses, ...parseSesIdentityArn(props.ses.identityArn) };

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      // The e-mail address is the user name (no separate one), compared without regard to case.
      signInAliases: { email: true },
      signInCaseSensitive: false,
      selfSignUpEnabled: true,
      autoVerify: { email: true },
      // A changed address takes effect only once its code is confirmed, so `email` is always a verified address.
      keepOriginal: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      // Cognito's own e-mail and message text: a code, which the page asks for (no link to click).
      userVerification: { emailStyle: cognito.VerificationEmailStyle.CODE },
      // The SES identity's own region: the stacks are environment-agnostic, so the pool's region is unknown here.
      ...(ses
        ? {
            email: cognito.UserPoolEmail.withSES({
              fromEmail: ses.fromAddress,
              sesRegion: ses.region,
              ...(ses.identity.includes('@') ? {} : { sesVerifiedDomain: ses.identity }),
            }),
          }
        : {}),
      // The one policy the page states and the local emulator enforces (web/src/password-policy.ts).
      passwordPolicy: { ...PASSWORD_POLICY, tempPasswordValidity: Duration.days(3) },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      // Lite covers what the page uses (sign-up, codes by e-mail, password sign-in, refresh) at the lowest price.
      featurePlan: cognito.FeaturePlan.LITE,
      mfa: cognito.Mfa.OFF,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    if (ses) {
      // withSES builds the identity's ARN with the deploying account; the operator's ARN is the one SES verified.
      (this.userPool.node.defaultChild as cognito.CfnUserPool).addPropertyOverride(
        'EmailConfiguration.SourceArn',
        ses.identityArn,
      );
    }

    this.client = this.userPool.addClient('PageClient', {
      // The page runs in a browser, which cannot keep a secret.
      generateSecret: false,
      // USER_PASSWORD_AUTH only: the page posts to Cognito's JSON API itself, and cognito-local, the emulator
      // `npm start` runs, implements no SRP, so one flow serves both hosts. The password travels over TLS.
      authFlows: { userPassword: true },
      // No hosted UI or OAuth redirects: the page never leaves its own origin.
      disableOAuth: true,
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      idTokenValidity: TOKEN_VALIDITY.idToken,
      accessTokenValidity: TOKEN_VALIDITY.accessToken,
      refreshTokenValidity: TOKEN_VALIDITY.refreshToken,
      enableTokenRevocation: true,
      // Sign-in and reset answer alike for unknown and known addresses, so the pool does not list its members.
      preventUserExistenceErrors: true,
      readAttributes: new cognito.ClientAttributes().withStandardAttributes({ email: true, emailVerified: true }),
      writeAttributes: new cognito.ClientAttributes().withStandardAttributes({ email: true }),
    });

    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG1',
        reason:
          'The policy asks for 12 characters with lower case, upper case and a digit, but no symbol: length is what makes a password strong (NIST SP 800-63B advises against composition rules), and the page and the local emulator apply this same rule.',
      },
      {
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is off: a dashboard session can create and revoke API keys for one account, not reach other accounts or the service, and the page and the local emulator implement no MFA challenge; a revoked key stops working within 60 s.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'The Plus plan (threat protection) bills every monthly active user from the first; the Lite plan covers this sign-up and password flow, and the dashboard API limits key creation per account on its own.',
      },
    );
  }
}
