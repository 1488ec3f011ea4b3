import { describe, expect, it } from 'vitest';
import { parseAuthenticationHeader, summariseAuthentication } from './authentication-results';
import { M365_AUTHENTICATION_RESULTS } from './fixtures/mail-cases';

const checks = (header: string) => parseAuthenticationHeader(header).results.map((r) => `${r.method}=${r.result}`);

describe('parseAuthenticationHeader', () => {
  it('reads the server, each check, its reason and properties, with comments and quotes', () => {
    const parsed = parseAuthenticationHeader(
      'mx.example.net (version 2); spf=softfail (domain of a@b.example does not designate 192.0.2.1; see x) ' +
        'smtp.mailfrom=a@b.example; dkim=pass reason="good; signature" header.d=b.example header.s=k1; ' +
        'dmarc=FAIL header.from=b.example',
    );
    expect(parsed.authserv_id).toBe('mx.example.net');
    expect(parsed.results).toEqual([
      {
        method: 'spf',
        result: 'softfail',
        reason: 'domain of a@b.example does not designate 192.0.2.1; see x',
        properties: { 'smtp.mailfrom': 'a@b.example' },
      },
      {
        method: 'dkim',
        result: 'pass',
        reason: 'good; signature',
        properties: { 'header.d': 'b.example', 'header.s': 'k1' },
      },
      { method: 'dmarc', result: 'fail', reason: null, properties: { 'header.from': 'b.example' } },
    ]);
  });

  it('reads a header without an authserv-id (Microsoft 365) from its first check on', () => {
    const parsed = parseAuthenticationHeader(M365_AUTHENTICATION_RESULTS);
    expect(parsed.authserv_id).toBeNull();
    expect(parsed.results).toEqual([
      {
        method: 'spf',
        result: 'softfail',
        reason: 'sender IP is 203.0.113.45',
        properties: { 'smtp.mailfrom': 'example-portal.com' },
      },
      { method: 'dkim', result: 'none', reason: 'message not signed', properties: { 'header.d': 'none' } },
      {
        method: 'dmarc',
        result: 'fail',
        reason: null,
        properties: { action: 'quarantine', 'header.from': 'example-portal.com' },
      },
      { method: 'compauth', result: 'fail', reason: '601', properties: {} },
    ]);
  });

  it('is lenient with spacing, versions, ARC, SRS values, stuck comments and a missing semicolon', () => {
    expect(checks('mx.example.net 1; SPF = Pass smtp.mailfrom = x@example.com; dkim/1 = fail')).toEqual([
      'spf=pass',
      'dkim=fail',
    ]);
    const srs = parseAuthenticationHeader(
      'mx.example.net; spf=pass smtp.mailfrom=SRS0=ab12=XY=example.com=user@fwd.example.net; arc=pass (i=2 spf=pass) smtp.remote-ip=192.0.2.5',
    );
    expect(srs.results[0]!.properties['smtp.mailfrom']).toBe('SRS0=ab12=XY=example.com=user@fwd.example.net');
    expect(srs.results[1]).toEqual({
      method: 'arc',
      result: 'pass',
      reason: 'i=2 spf=pass',
      properties: { 'smtp.remote-ip': '192.0.2.5' },
    });
    expect(parseAuthenticationHeader('mx.example.net; spf=pass(sender ok) smtp.mailfrom=a.example').results[0]).toEqual(
      { method: 'spf', result: 'pass', reason: 'sender ok', properties: { 'smtp.mailfrom': 'a.example' } },
    );
    const missing = parseAuthenticationHeader('mx.example.net spf=fail smtp.mailfrom=a.example; dkim=pass');
    expect(missing.authserv_id).toBe('mx.example.net');
    expect(missing.results.map((r) => r.method)).toEqual(['spf', 'dkim']);
    expect(parseAuthenticationHeader('"mx example"; dmarc=pass').authserv_id).toBe('mx example');
  });

  it('gives no checks for `none` and never throws on garbage', () => {
    expect(parseAuthenticationHeader('mx.example.net; none').results).toEqual([]);
    expect(parseAuthenticationHeader('mx.example.net 1; none').authserv_id).toBe('mx.example.net');
    expect(parseAuthenticationHeader(';;(((=').results).toEqual([]);
    expect(parseAuthenticationHeader('').results).toEqual([]);
    for (const garbage of ['= = =', '"unterminated', '(a(b)c', 'x; =pass; spf=', '\\', 'spf=; dkim=(x)']) {
      expect(() => parseAuthenticationHeader(garbage)).not.toThrow();
    }
  });
});

describe('summariseAuthentication', () => {
  it('reads every header the receiving server wrote, one per method, and no header below another server’s', () => {
    const headers = [
      'mx.corp.example; spf=fail smtp.mailfrom=example-bank.com',
      'mx.corp.example; dkim=fail header.d=example-bank.com',
      'mx.corp.example; dmarc=fail header.from=example-bank.com',
      'relay.example.net; spf=pass; dkim=pass; arc=pass',
      'mx.corp.example; dmarc=pass; compauth=pass',
    ].map(parseAuthenticationHeader);
    expect(summariseAuthentication(headers)).toEqual({
      spf: 'fail',
      dkim: 'fail',
      dmarc: 'fail',
      arc: null,
      compauth: null,
    });
  });

  it('takes the first result of a method, a passing DKIM signature over others, and Received-SPF when no check gives SPF', () => {
    const headers = ['mx.example.net; dkim=fail header.d=a.example; dkim=pass header.d=b.example; dmarc=pass'].map(
      parseAuthenticationHeader,
    );
    expect(summariseAuthentication(headers, 'Pass (mailfrom) identity=mailfrom')).toEqual({
      spf: 'pass',
      dkim: 'pass',
      dmarc: 'pass',
      arc: null,
      compauth: null,
    });
    expect(summariseAuthentication([parseAuthenticationHeader(M365_AUTHENTICATION_RESULTS)], 'Pass')).toEqual({
      spf: 'softfail',
      dkim: 'none',
      dmarc: 'fail',
      arc: null,
      compauth: 'fail',
    });
    expect(summariseAuthentication([], null)).toEqual({
      spf: null,
      dkim: null,
      dmarc: null,
      arc: null,
      compauth: null,
    });
  });
});
