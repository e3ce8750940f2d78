import { describe, expect, it } from 'vitest';
import { addressRefusal } from './address-policy.ts';

describe('addressRefusal', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '240.0.0.1',
    '192.0.2.1',
    '198.18.0.1',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    '::ffff:0:192.168.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::1',
    '2002:a9fe:a9fe::1',
    '2002:7f00:1::',
    '::127.0.0.1',
    '2001:db8::1',
    '2001::1',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(addressRefusal(address)).toEqual(expect.any(String));
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('lets public %s through', (address) => {
    expect(addressRefusal(address)).toBeNull();
  });

  it('names the range and the embedded address in the reason', () => {
    expect(addressRefusal('::ffff:169.254.169.254')).toBe(
      '::ffff:169.254.169.254 carries 169.254.169.254 is in the linkLocal range',
    );
  });
});
