import { describe, expect, it } from 'vitest';
import { checkEndpointUrl, type AddressPolicy } from '../src/index.js';

const strict: AddressPolicy = { allowHttp: false, allowedHosts: [] };
const dns: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.0.0.5'],
  'mixed.example.com': ['93.184.216.34', '192.168.0.10'],
  'v6private.example.com': ['fd00::5'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'meta.example.com': ['169.254.169.254'],
  'empty.example.com': [],
};
const resolve = async (hostname: string): Promise<string[]> => {
  const answers = dns[hostname];
  if (!answers) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return answers;
};
const check = (raw: string, policy: AddressPolicy = strict) => checkEndpointUrl(raw, policy, resolve);

const refused: Array<[string, RegExp]> = [
  ['https://127.0.0.1/hook', /127\.0\.0\.1 is a loopback/],
  ['https://127.1/hook', /loopback/],
  ['https://2130706433/hook', /loopback/],
  ['https://0x7f000001/hook', /loopback/],
  ['https://0177.0.0.1/hook', /loopback/],
  ['https://127.0.0.1.:8443/hook', /loopback/],
  ['https://[::1]/hook', /loopback/],
  ['https://[::ffff:127.0.0.1]/hook', /loopback/],
  ['https://[::ffff:7f00:1]/hook', /loopback/],
  ['https://10.0.0.1/', /private/],
  ['https://172.16.5.4/', /private/],
  ['https://192.168.1.1/', /private/],
  ['https://[fc00::1]/', /private/],
  ['https://[fd12::1]/', /private/],
  ['https://169.254.10.10/', /link-local/],
  ['https://[fe80::1]/', /link-local/],
  ['https://100.64.1.1/', /cgnat/],
  ['https://169.254.169.254/latest/meta-data/', /metadata/],
  ['https://[fd00:ec2::254]/', /metadata/],
  ['https://100.100.100.200/', /metadata/],
  ['https://0.0.0.0/', /unspecified/],
  ['https://0/', /unspecified/],
  ['https://224.0.0.1/', /multicast/],
  ['https://user:pass@example.com/', /credentials/],
  ['https://user@example.com/', /credentials/],
  ['https://hooks.example.com/#frag', /fragment/],
  ['https://hooks.example.com/#', /fragment/],
  ['ftp://example.com/', /scheme ftp:/],
  ['file:///etc/passwd', /scheme file:/],
  ['gopher://example.com/', /scheme gopher:/],
  ['javascript:alert(1)', /scheme javascript:/],
  ['http://hooks.example.com/', /https/],
  ['https://localhost/', /internal name/],
  ['https://LOCALHOST.:3000/', /internal name/],
  ['https://api.localhost/', /internal name/],
  ['https://metadata.google.internal/', /internal name/],
  ['https://db.internal/', /internal name/],
  ['https://printer.local/', /internal name/],
  ['https://metadata/', /internal name/],
  ['https://internal.example.com/', /resolves to 10\.0\.0\.5, a private address/],
  ['https://mixed.example.com/', /resolves to 192\.168\.0\.10, a private/],
  ['https://v6private.example.com/', /fd00::5, a private/],
  ['https://mapped.example.com/', /::ffff:127\.0\.0\.1, a loopback/],
  ['https://meta.example.com/', /169\.254\.169\.254, a metadata/],
  ['https://nowhere.example.com/', /could not be resolved/],
  ['https://empty.example.com/', /could not be resolved/],
  ['not a url', /not a valid absolute URL/],
  ['/relative/path', /not a valid absolute URL/],
];

describe('checkEndpointUrl: refused', () => {
  it.each(refused)('%s', async (raw, reason) => {
    const verdict = await check(raw);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });
});

describe('checkEndpointUrl: accepted', () => {
  it.each([
    'https://hooks.example.com/webhooks?tenant=1',
    'https://hooks.example.com:8443/path',
    'https://93.184.216.34/hook',
    'https://[2606:4700:4700::1111]/hook',
    'https://8.8.8.8:444/',
  ])('%s', async (raw) => {
    const verdict = await check(raw);
    expect(verdict).toEqual({ ok: true, url: new URL(raw) });
  });

  it('returns the WHATWG-normalised URL', async () => {
    const verdict = await check('HTTPS://Hooks.Example.COM:443/a/../b');
    expect(verdict.ok && verdict.url.href).toBe('https://hooks.example.com/b');
  });

  it('accepts http only when allowHttp is set', async () => {
    expect((await check('http://hooks.example.com/', { allowHttp: true, allowedHosts: [] })).ok).toBe(true);
  });

  it('does not resolve an IP literal', async () => {
    let calls = 0;
    await checkEndpointUrl('https://8.8.8.8/', strict, async () => {
      calls++;
      return [];
    });
    expect(calls).toBe(0);
  });
});

describe('checkEndpointUrl: allowedHosts exempt exactly what they list', () => {
  const dev: AddressPolicy = { allowHttp: true, allowedHosts: ['127.0.0.1', 'localhost', '::1', '10.0.0.0/8'] };

  it.each([
    'http://127.0.0.1:3000/sink',
    'http://2130706433:3000/sink',
    'http://[::ffff:127.0.0.1]:3000/sink',
    'http://localhost:3000/sink',
    'http://[::1]:3000/sink',
    'http://10.9.8.7/sink',
    'https://internal.example.com/',
  ])('allows %s', async (raw) => {
    expect((await check(raw, dev)).ok).toBe(true);
  });

  it.each(['http://127.0.0.2/', 'http://api.localhost/', 'http://192.168.0.1/', 'https://mixed.example.com/', 'https://169.254.169.254/'])(
    'still refuses %s',
    async (raw) => {
      expect((await check(raw, dev)).ok).toBe(false);
    },
  );

  it('exempts a listed name whatever it resolves to, and only that name', async () => {
    const policy: AddressPolicy = { allowHttp: false, allowedHosts: ['internal.example.com'] };
    expect((await check('https://internal.example.com/', policy)).ok).toBe(true);
    expect((await check('https://Internal.Example.com./', policy)).ok).toBe(true);
    expect((await check('https://mixed.example.com/', policy)).ok).toBe(false);
  });
});
