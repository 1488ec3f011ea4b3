import { describe, expect, it } from 'vitest';
import { extractUrls, normaliseUrl, UrlCollector } from './urls';

describe('extractUrls', () => {
  it('finds URLs in text, trims sentence punctuation, keeps balanced parentheses', () => {
    expect(
      extractUrls([
        'Pay at https://pay.example-phish.com/inv?id=7. Or (see http://example.org/a_(b)) and www.example.net/x, ftp://files.example.com/f.zip!',
      ]),
    ).toEqual([
      'https://pay.example-phish.com/inv?id=7',
      'http://example.org/a_(b)',
      'ftp://files.example.com/f.zip',
      'http://www.example.net/x',
    ]);
  });

  it('finds URLs in HTML attributes, decoding character references', () => {
    const html =
      '<a href="HTTPS://Login.Example-Phish.COM:443/x?a=1&amp;b=2">Sign in</a>' +
      '<img src=\'http://tracker.example.com/p.gif\'><a href="https&#x3A;&#x2F;&#x2F;evil.example.org/&#47;y">x</a>' +
      '<a href="mailto:a@example.com">m</a><a href="javascript:alert(1)">j</a><a href="/relative">r</a>';
    expect(extractUrls([html])).toEqual([
      'https://login.example-phish.com/x?a=1&b=2',
      'http://tracker.example.com/p.gif',
      'https://evil.example.org//y',
    ]);
  });

  it('deduplicates across bodies after normalising, first sighting first, and caps the count', () => {
    expect(
      extractUrls(['http://EXAMPLE.com/a http://example.com:80/a', '<a href="http://example.com/a">', null]),
    ).toEqual(['http://example.com/a']);
    const many = Array.from({ length: 50 }, (_, i) => `https://h${i}.example.com/`).join(' ');
    expect(extractUrls([many], { maxUrls: 10 })).toHaveLength(10);
  });

  it('turns international names into punycode', () => {
    expect(extractUrls(['http://пример.испытание/путь'])).toEqual([
      'http://xn--e1afmkfd.xn--80akhbyknj4f/%D0%BF%D1%83%D1%82%D1%8C',
    ]);
  });

  it('ignores what is not an http, https or ftp URL with a host', () => {
    expect(normaliseUrl('http://')).toBeNull();
    expect(normaliseUrl('file:///etc/passwd')).toBeNull();
    expect(normaliseUrl('https://a.example/%zz')).toBe('https://a.example/%zz');
    expect(extractUrls(['http://[::1', 'https:// spaced.example.com'])).toEqual([]);
  });
});

describe('UrlCollector.html', () => {
  it('follows form targets, sources and refreshes written without a scheme of their own', () => {
    const html = [
      '<meta content="5;url=https://refresh.example.net/go" http-equiv="refresh">',
      '<base href="https://base.example.net/app/">',
      '<form method="post" action="//collect.example.net/post.php"><input name="p"></form>',
      '<iframe src=//frame.example.net/x></iframe>',
      '<button formaction="submit.php">Go</button>',
      '<img srcset="//img.example.net/a.png 1x, //img.example.net/b.png 2x">',
      '<a href="#top">top</a> <a href="javascript:go()">go</a> <a href="mailto:a@example.net">mail</a>',
    ].join('\n');
    expect(new UrlCollector().html(html).urls).toEqual([
      'https://refresh.example.net/go',
      'https://base.example.net/app/',
      'https://collect.example.net/post.php',
      'https://frame.example.net/x',
      'https://base.example.net/app/submit.php',
      'https://img.example.net/a.png',
      'https://img.example.net/b.png',
    ]);
  });

  it('leaves out relative targets when the page names no base (they are files beside it)', () => {
    expect(new UrlCollector().html('<a href="page2.html">next</a><img src="logo.png">').urls).toEqual([]);
  });

  it('stops at the limit across bodies and files', () => {
    const collector = new UrlCollector({ maxUrls: 2 });
    collector.text('https://a.example/ https://b.example/').html('<a href="https://c.example/">c</a>');
    expect(collector.urls).toEqual(['https://a.example/', 'https://b.example/']);
  });
});
