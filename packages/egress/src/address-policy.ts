import ipaddr from 'ipaddr.js';

/**
 * Why an address must not be reached from the crawler, or null when it is public unicast.
 * Only ipaddr.js's `unicast` range passes; IPv6 forms that carry an IPv4 address
 * (IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64 64:ff9b::/96, 6to4) are judged by the
 * IPv4 address inside, so `::ffff:169.254.169.254` is refused like `169.254.169.254`.
 */
export function addressRefusal(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return ipv4Refusal(parsed as ipaddr.IPv4, address);
  const ipv6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIpv4(ipv6);
  if (embedded) {
    const inner = ipv4Refusal(embedded, embedded.toString());
    return inner ? `${address} carries ${inner}` : null;
  }
  const range = ipv6.range();
  return range === 'unicast' ? null : `${address} is in the ${range} range`;
}

function ipv4Refusal(address: ipaddr.IPv4, shown: string): string | null {
  const range = address.range();
  return range === 'unicast' ? null : `${shown} is in the ${range} range`;
}

function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = address.toByteArray();
  const range = address.range();
  const ipv4At = (offset: number) => ipaddr.fromByteArray(bytes.slice(offset, offset + 4)) as ipaddr.IPv4;
  const zero = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  if (range === 'ipv4Mapped' || range === 'rfc6145') return ipv4At(12);
  // NAT64's well-known prefix 64:ff9b::/96; the local-use 64:ff9b:1::/48 stays refused by range.
  if (range === 'rfc6052' && zero(4, 12)) return ipv4At(12);
  if (range === '6to4') return ipv4At(2);
  // Deprecated IPv4-compatible ::a.b.c.d (not :: and ::1, which have their own ranges).
  if (zero(0, 12) && !(zero(12, 15) && (bytes[15] ?? 0) <= 1)) return ipv4At(12);
  return null;
}
