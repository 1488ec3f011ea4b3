import { describe, expect, it } from 'vitest';
import { readableAgent } from './user-agent';

describe('readableAgent', () => {
  it('names the browser, its major version and the system', () => {
    expect(
      readableAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toEqual({ browser: 'Chrome 131', os: 'Windows', mobile: false });
    expect(
      readableAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      ),
    ).toEqual({ browser: 'Safari 17', os: 'macOS', mobile: false });
    expect(readableAgent('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toMatchObject({
      browser: 'Firefox 128',
      os: 'Linux',
    });
    expect(
      readableAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
      ).browser,
    ).toBe('Edge 130');
    expect(
      readableAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari 17', os: 'iOS', mobile: true });
  });

  it('says nothing it does not know', () => {
    expect(readableAgent('')).toEqual({ browser: null, os: null, mobile: false });
    expect(readableAgent('curl/8.5.0')).toMatchObject({ browser: 'curl 8.5.0', os: null });
  });
});
