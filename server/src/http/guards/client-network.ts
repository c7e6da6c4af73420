// The client an attempt limit counts. An IPv4 address is one client (an IPv4-mapped IPv6 address
// is that IPv4 address); an IPv6 address counts by its /64, the network one home, phone or server
// is given: rotating through its 2^64 addresses earns no fresh allowance (docs/security.md).
import ipaddr from 'ipaddr.js';

export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.parse(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

/** The wider network a sign-up comes from, as a prefix: its IPv4 /24 (an IPv4-mapped address as
 * its IPv4) or its IPv6 /48, a site's allocation. Sign-ups from one are compared and limited
 * together, so the addresses of one farm count as one network. */
export function signupNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip.slice(0, 64);
  const address = ipaddr.process(ip);
  return address.kind() === 'ipv4'
    ? `${ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/24`).toString()}/24`
    : `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/48`).toString()}/48`;
}
