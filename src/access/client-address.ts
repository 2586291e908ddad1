// Who a per-address limit counts (the creation limit, the admin throttle). An IPv6 client is counted by its /64:
// a subscriber, a machine or a cloud instance is given a /64 (or a larger block) and may send from any of its 2^64
// addresses, so counting whole addresses would give one visitor as many allowances as it likes. A dual-stack
// socket reports an IPv4 client as ::ffff:a.b.c.d, counted as that IPv4 address.
import { isIPv4, isIPv6 } from 'node:net';

/** The key a per-address limit counts `address` (req.ip) under. */
export function clientKey(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  const ip = address.replace(/%.*$/, '');
  if (!isIPv6(ip)) return address;
  const groups = groupsOf(ip);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail read as two groups). */
function groupsOf(ip: string): number[] {
  const read = (part: string) => (part === '' ? [] : part.split(':')).flatMap((group) => (isIPv4(group) ? dotted(group) : [Number.parseInt(group, 16)]));
  const [head = '', tail] = ip.split('::');
  const before = read(head);
  const after = tail === undefined ? [] : read(tail);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

function dotted(ipv4: string): number[] {
  const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
  return [(a << 8) | b, (c << 8) | d];
}
