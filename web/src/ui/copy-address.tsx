// An address shown as its first 6 and last 4 characters, the whole of it for screen
// readers and on hover, with Copy (2 s copied state) and, where the chain has one, an explorer link.
import { shortAddress } from '@crw/core';
import { Check, Copy, ExternalLink } from 'lucide-react';
import { explorerPage } from '../lib/explorer';
import { useCopy } from '../lib/use-copy';
import styles from './copy-address.module.css';
import icon from './icon-button.module.css';
import { notify } from './toaster';
import hidden from './visually-hidden.module.css';

export function CopyAddress({
  label,
  address,
  explorerUrl,
}: {
  label: string;
  address: string;
  explorerUrl?: string | null;
}) {
  const { copied, copy } = useCopy();
  async function onCopy() {
    if (!(await copy(address)))
      notify.error('Your browser did not allow copying. Select the address and copy it instead.');
  }
  return (
    <div className={styles.row}>
      <span className={styles.label}>{label}</span>
      <span className={styles.address} title={address}>
        <span aria-hidden="true">{shortAddress(address)}</span>
        <span className={hidden.visuallyHidden}>{address}</span>
      </span>
      <span className={styles.actions}>
        <button
          type="button"
          className={icon.iconButton}
          onClick={() => void onCopy()}
          aria-label={copied ? `${label} copied` : `Copy ${label}`}
        >
          {copied ? <Check aria-hidden="true" size={16} /> : <Copy aria-hidden="true" size={16} />}
          <span>{copied ? 'Copied' : 'Copy'}</span>
        </button>
        {explorerUrl ? (
          <a
            className={icon.iconButton}
            href={explorerPage(explorerUrl, 'address', address)}
            target="_blank"
            rel="noreferrer"
          >
            <ExternalLink aria-hidden="true" size={16} />
            <span>Explorer</span>
          </a>
        ) : null}
      </span>
    </div>
  );
}
