// The recovery phrase's download: a text file whose first lines say what it is, for which account
// and wallet, and how to keep it, so a file found months later on a laptop explains itself.

export interface RecoveryPhraseFile {
  phrase: string;
  email: string | null;
  address: string | null;
  /** Where the wallet is used, e.g. https://rewards.example.org */
  site: string;
}

export function recoveryPhraseText({ phrase, email, address, site }: RecoveryPhraseFile): string {
  const words = phrase.trim().split(/\s+/);
  const owner = [
    email ? `the account ${email}` : null,
    address ? `the wallet ${address}` : null,
  ].filter(Boolean);
  return [
    'REME Wallet — recovery phrase',
    '',
    `These ${words.length} words open ${owner.length ? owner.join(' and ') : 'your REME wallet'} at ${site}.`,
    'If you forget your password, they are the only way back into the wallet.',
    'Anyone who has them can take everything in the wallet: never share them, and nobody from the',
    'community will ever ask for them.',
    'Write them on paper and keep it somewhere safe (or in a password manager), then delete this file.',
    '',
    ...words.map((word, i) => `${String(i + 1).padStart(2, ' ')}. ${word}`),
    '',
    `All ${words.length} in order: ${words.join(' ')}`,
    '',
  ].join('\n');
}
