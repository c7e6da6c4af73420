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
