import { describe, expect, it } from 'vitest';
import { redactUrl, withSecretsRedacted } from './log-redaction';

describe('log redaction', () => {
  it('hides one-time link tokens and secret query values', () => {
    expect(redactUrl('/api/activate/abcDEF123_-/')).toBe('/api/activate/***/');
    expect(redactUrl('/api/sso/callback/?code=xyz&state=abc&next=%2Falerts')).toBe(
      '/api/sso/callback/?code=***&state=***&next=%2Falerts',
    );
    expect(redactUrl('/api/alerts/check/?page=2&ordering=-date_time')).toBe(
      '/api/alerts/check/?page=2&ordering=-date_time',
    );
  });

  it('adds the request serializer to any logger options, and leaves "no logger" alone', () => {
    expect(withSecretsRedacted(false)).toBe(false);
    const options = withSecretsRedacted({ level: 'trace' });
    expect(typeof options === 'object' && options.serializers?.req).toBeTypeOf('function');
  });
});
