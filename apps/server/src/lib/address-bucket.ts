import { addressLookupDigest } from './secrets.ts';

/**
 * The counter of an address: an IPv4 address as it is, an IPv6 one by its /64, the block one
 * subscriber line gets (RFC 6177), so that a host cannot take a fresh budget from each of its 2^64
 * addresses. IPv4-mapped IPv6 (::ffff:a.b.c.d) counts as the IPv4 address.
 */
export function addressBucket(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * What every per-address limit counts on: the address's bucket under the lookup key, never the
 * address itself, its digest kept for the next request from it (secrets.ts `addressLookupDigest`).
 */
export const addressDigest = (address: string): string => addressLookupDigest(addressBucket(address));
