import { describe, expect, it } from 'vitest';
import { addressBucket } from './address-bucket.ts';

describe('addressBucket', () => {
  it('keeps an IPv4 address, also when it comes IPv4-mapped', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('puts every address of one IPv6 /64 in one bucket, whatever its spelling', () => {
    const bucket = '2001:db8:0:1::/64';
    for (const a of ['2001:db8:0:1::1', '2001:0db8:0000:0001:ffff:ffff:ffff:ffff', '2001:DB8::1:0:0:0:5', '2001:db8:0:1:a:b:c:d']) {
      expect(addressBucket(a), a).toBe(bucket);
    }
    expect(addressBucket('2001:db8:0:2::1')).not.toBe(bucket);
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
  });
});
