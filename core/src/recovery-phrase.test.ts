import { describe, expect, it } from 'vitest';
import { recoveryPhraseText } from './recovery-phrase';

const phrase =
  'abandon ability able about above absent absorb abstract absurd abuse access accident';

describe('the recovery phrase download', () => {
  it('first says what it is, for which e-mail and wallet, and how to keep it; then the words', () => {
    const text = recoveryPhraseText({
      phrase,
      email: 'ada@example.org',
      address: '0xAbC0000000000000000000000000000000000001',
      site: 'https://rewards.example.org',
    });
    const lines = text.split('\n');
    expect(lines[0]).toBe('REME Wallet — recovery phrase');
    expect(lines[2]).toBe(
      'These 12 words open the account ada@example.org and the wallet 0xAbC0000000000000000000000000000000000001 at https://rewards.example.org.',
    );
    expect(text).toMatch(/never share them/);
    expect(text).toMatch(/Write them on paper/);
    expect(lines).toContain(' 1. abandon');
    expect(lines).toContain('12. accident');
    expect(text).toContain(`All 12 in order: ${phrase}`);
  });

  it('still reads well without an e-mail or address', () => {
    const text = recoveryPhraseText({ phrase, email: null, address: null, site: 'http://x' });
    expect(text.split('\n')[2]).toBe('These 12 words open your REME wallet at http://x.');
  });
});
