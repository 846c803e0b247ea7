import { ConfigError, parseConfig } from '../../../web/src/config';

const valid = {
  cognito: {
    endpoint: 'https://cognito-idp.eu-west-1.amazonaws.com/',
    region: 'eu-west-1',
    userPoolId: 'eu-west-1_abc',
    clientId: 'client123',
  },
  apiBase: '/api',
  apiUrl: 'https://fx.example.com/v1/',
  contact: 'mailto:sales@example.com',
};

describe('the page config (config.json)', () => {
  it('reads a complete config', () => {
    expect(parseConfig(valid)).toEqual(valid);
  });

  it('drops a trailing slash from apiBase, since paths are appended to it', () => {
    expect(parseConfig({ ...valid, apiBase: '/api/' }).apiBase).toBe('/api');
  });

  it('reads a missing or empty contact as none', () => {
    expect(parseConfig({ ...valid, contact: null }).contact).toBeNull();
    expect(parseConfig({ ...valid, contact: '  ' }).contact).toBeNull();
    const { contact: _omitted, ...noContact } = valid;
    expect(parseConfig(noContact).contact).toBeNull();
  });

  it('refuses a config without the Cognito client id', () => {
    const broken = { ...valid, cognito: { ...valid.cognito, clientId: '' } };
    expect(() => parseConfig(broken)).toThrow(ConfigError);
    expect(() => parseConfig(broken)).toThrow('cognito.clientId is missing');
  });

  it('refuses a Cognito endpoint that is no http(s) URL', () => {
    expect(() => parseConfig({ ...valid, cognito: { ...valid.cognito, endpoint: 'javascript:alert(1)' } })).toThrow(
      'cognito.endpoint is not an http(s) URL',
    );
    expect(() => parseConfig({ ...valid, cognito: { ...valid.cognito, endpoint: 'not a url' } })).toThrow(ConfigError);
  });

  it('refuses anything that is not an object', () => {
    expect(() => parseConfig(null)).toThrow(ConfigError);
    expect(() => parseConfig([])).toThrow(ConfigError);
    expect(() => parseConfig({ apiBase: '/api' })).toThrow('cognito settings are missing');
  });
});
