import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('has defaults for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', databaseUrl: undefined, logLevel: 'info' });
    expect(config.dataDir).toBe(path.resolve('./data'));
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(8080);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/vigil',
      DATABASE_URL: 'postgres://vigil@db/vigil',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://xdr.example.com/',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/vigil',
      databaseUrl: 'postgres://vigil@db/vigil',
      logLevel: 'warn',
      publicUrl: 'https://xdr.example.com',
      cookieSecure: true,
    });
  });

  it.each([
    ['PORT', 'eighty', /PORT="eighty"/],
    ['PORT', '70000', /PORT="70000"/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL="loud".*one of/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL=.*postgres:\/\//],
    ['PUBLIC_URL', 'not a url', /PUBLIC_URL/],
  ])('refuses a wrong %s and names the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('lists every wrong variable at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });
});
