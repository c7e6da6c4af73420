import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config';

describe('parseConfig', () => {
  it('works with an empty environment (the embedded default)', () => {
    const result = parseConfig({});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.PORT).toBe(3000);
    expect(result.config.publicUrl).toBe('http://localhost:3000');
    expect(result.config.DATABASE_URL).toBeUndefined();
    expect(result.config.SMTP_URL).toBeUndefined();
  });

  it('treats empty values as unset, as a copied .env.example has them', () => {
    const result = parseConfig({ DATABASE_URL: '', SMTP_URL: '  ', PORT: '' });
    expect(result.ok && result.config.DATABASE_URL).toBeUndefined();
    expect(result.ok && result.config.PORT).toBe(3000);
  });

  it('lists every problem, not just the first', () => {
    const result = parseConfig({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      SMTP_URL: 'http://mail',
      LOG_LEVEL: 'loud',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.split(':')[0])).toEqual(
      expect.arrayContaining(['PORT', 'DATABASE_URL', 'SMTP_URL', 'LOG_LEVEL']),
    );
    expect(result.problems).toHaveLength(4);
  });

  it('takes a conversion rate of up to three decimals above 0, and refuses anything else', () => {
    const rate = (value: string) => parseConfig({ CONVERSION_CAPS_PER_REME: value });
    expect(rate('6.028').ok && rate('10').ok && rate('0.5').ok).toBe(true);
    for (const bad of ['0', '0.000', '6.0281', '-6', 'six', '1e3'])
      expect(rate(bad).ok, bad).toBe(false);
  });

  it('requires SMTP_URL and PUBLIC_URL in production', () => {
    const result = parseConfig({ NODE_ENV: 'production' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.join('\n')).toMatch(/SMTP_URL/);
    expect(result.problems.join('\n')).toMatch(/PUBLIC_URL/);
  });
});

describe('ETH_PRICE_GBP and FAUCET_URL', () => {
  it('prices ETH at £2,000 unless told, and names no faucet', () => {
    const result = parseConfig({});
    expect(result.ok && [result.config.ETH_PRICE_GBP, result.config.FAUCET_URL]).toEqual([
      '2000',
      undefined,
    ]);
  });
  it('takes a decimal price and a faucet URL, and refuses anything else', () => {
    const good = parseConfig({
      ETH_PRICE_GBP: '2450.50',
      FAUCET_URL: 'https://faucet.example.org/sepolia',
    });
    expect(good.ok && [good.config.ETH_PRICE_GBP, good.config.FAUCET_URL]).toEqual([
      '2450.50',
      'https://faucet.example.org/sepolia',
    ]);
    const bad = parseConfig({ ETH_PRICE_GBP: '£2,000', FAUCET_URL: 'not a url' });
    expect(bad.ok ? [] : bad.problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'ETH_PRICE_GBP',
      'FAUCET_URL',
    ]);
  });
});

describe('TRUST_PROXY', () => {
  const trustProxy = (value?: string) => {
    const result = parseConfig(value === undefined ? {} : { TRUST_PROXY: value });
    return result.ok ? result.config.TRUST_PROXY : result.problems;
  };

  it('trusts no proxy unless told: unset, false or 0', () => {
    expect([trustProxy(), trustProxy('false'), trustProxy('0')]).toEqual([false, false, false]);
  });

  it('takes a hop count or a list of proxy addresses and networks', () => {
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy('2')).toBe(2);
    expect(trustProxy('10.0.0.0/8, 127.0.0.1,::1')).toBe('10.0.0.0/8,127.0.0.1,::1');
    expect(trustProxy('loopback,fd00::/8')).toBe('loopback,fd00::/8');
  });

  it('refuses true (any client could choose its address), saying what to write instead', () => {
    const problems = trustProxy('true');
    expect(problems).toEqual([
      expect.stringMatching(/^TRUST_PROXY: .*number of proxies.*TRUST_PROXY=1.*addresses/),
    ]);
  });

  it('refuses addresses that are not IPs or networks', () => {
    for (const value of ['10.0.0.300', 'proxy.example.org', '10.0.0.0/33', '-1', '1.5']) {
      expect(trustProxy(value), value).toEqual([expect.stringMatching(/^TRUST_PROXY: /)]);
    }
  });
});

describe('.env.example', () => {
  it('works as it is', async () => {
    const { readFileSync } = await import('node:fs');
    const { parseEnv } = await import('node:util');
    const env = parseEnv(readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8'));
    const result = parseConfig(env);
    expect(result.ok ? [] : result.problems).toEqual([]);
  });

  it('documents every variable the server reads', async () => {
    const { readFileSync } = await import('node:fs');
    const example = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
    const source = readFileSync(new URL('../../src/config.ts', import.meta.url), 'utf8');
    const read = [...source.matchAll(/^ {4}([A-Z][A-Z0-9_]+): z/gm)].map((m) => m[1]);
    expect(read.length).toBeGreaterThan(10);
    for (const name of read) expect(example, name).toMatch(new RegExp(`^${name}=`, 'm'));
  });
});
