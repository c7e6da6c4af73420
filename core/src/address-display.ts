import { ADDRESS_DISPLAY } from './constants';

/** Addresses show their first 6 and last 4 characters, an ellipsis (…) between. */
export function shortAddress(address: string): string {
  const { head, tail } = ADDRESS_DISPLAY;
  return address.length <= head + tail
    ? address
    : `${address.slice(0, head)}…${address.slice(-tail)}`;
}
