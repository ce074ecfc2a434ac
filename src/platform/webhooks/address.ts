/**
 * Is an IP address one a webhook may be sent to? Webhook URLs come from customers, so without this
 * check a URL could make the server POST into its own network or the cloud metadata service (SSRF).
 * "Public" means globally routable unicast: private, loopback, link-local, CGNAT, documentation,
 * benchmarking, multicast and reserved ranges are refused, and IPv6 forms that carry an IPv4 address
 * (mapped, compatible, NAT64, 6to4) are judged by that IPv4 address.
 *
 * Hand-written parsing rather than net.BlockList: it runs at every connection, allocates almost
 * nothing, and fails closed (anything it cannot parse is not public).
 */

/** [network, prefix length] pairs; the network is written as four octets for readability. */
const NON_PUBLIC_IPV4: ReadonlyArray<readonly [number, number, number, number, number]> = [
  [0, 0, 0, 0, 8], // "this network"
  [10, 0, 0, 0, 8], // private
  [100, 64, 0, 0, 10], // carrier-grade NAT
  [127, 0, 0, 0, 8], // loopback
  [169, 254, 0, 0, 16], // link-local, cloud metadata (169.254.169.254)
  [172, 16, 0, 0, 12], // private
  [192, 0, 0, 0, 24], // IETF protocol assignments
  [192, 0, 2, 0, 24], // TEST-NET-1
  [192, 88, 99, 0, 24], // 6to4 relay anycast
  [192, 168, 0, 0, 16], // private
  [198, 18, 0, 0, 15], // benchmarking
  [198, 51, 100, 0, 24], // TEST-NET-2
  [203, 0, 113, 0, 24], // TEST-NET-3
  [224, 0, 0, 0, 4], // multicast
  [240, 0, 0, 0, 4], // reserved, and 255.255.255.255 broadcast
];

const IPV4_RULES: ReadonlyArray<{ network: number; mask: number }> = NON_PUBLIC_IPV4.map(([a, b, c, d, bits]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { network: (((a << 24) | (b << 16) | (c << 8) | d) & mask) >>> 0, mask };
});

export function isPublicAddress(ip: string): boolean {
  if (ip.includes(':')) return isPublicIPv6(ip);
  const v4 = parseIPv4(ip, 0, ip.length);
  return v4 !== -1 && isPublicIPv4(v4);
}

function isPublicIPv4(addr: number): boolean {
  for (const rule of IPV4_RULES) {
    if ((addr & rule.mask) >>> 0 === rule.network) return false;
  }
  return true;
}

// One scratch array reused by every call: parsing is synchronous, so no two calls share it at once.
const groups = new Uint16Array(8);

function isPublicIPv6(ip: string): boolean {
  const zone = ip.indexOf('%'); // a zone id (fe80::1%eth0) only ever comes with link-local addresses
  if (!parseIPv6(zone === -1 ? ip : ip.slice(0, zone))) return false;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
  const low32 = ((g6 << 16) | g7) >>> 0;

  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0) {
    // ::/96 (IPv4-compatible, which includes :: and ::1) and ::ffff:0:0/96 (IPv4-mapped)
    if (g5 === 0 || g5 === 0xffff) return isPublicIPv4(low32);
    return false;
  }
  if (g0 === 0x64 && g1 === 0xff9b) {
    // NAT64 well-known prefix 64:ff9b::/96
    if (g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPublicIPv4(low32);
    // Local-use NAT64 64:ff9b:1::/48 (RFC 8215): judged only in the /96 layout; any other layout
    // could hide the IPv4 address elsewhere, so it is refused.
    if (g2 === 1 && g3 === 0 && g4 === 0 && g5 === 0) return isPublicIPv4(low32);
    return false;
  }
  if (g0 === 0x2002) return isPublicIPv4(((g1 << 16) | g2) >>> 0); // 6to4: 2002:AABB:CCDD::/48
  if (g0 === 0x2001 && g1 < 0x200) return false; // 2001::/23 IETF assignments, incl. 2001::/32 Teredo
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation
  if (g0 === 0x3fff && g1 < 0x1000) return false; // 3fff::/20 documentation (RFC 9637)
  // Everything else outside 2000::/3 (global unicast) is not routable on the internet: 100::/64
  // discard, fc00::/7 unique local, fe80::/10 link-local, fec0::/10 site-local, ff00::/8 multicast,
  // and all unassigned space.
  return (g0 & 0xe000) === 0x2000;
}

/** Dotted-quad decimal between start and end, as an unsigned 32-bit number, or -1. Leading zeros
 * are refused: some parsers read them as octal, so such text is ambiguous. */
function parseIPv4(text: string, start: number, end: number): number {
  let value = 0;
  let octets = 0;
  let i = start;
  while (octets < 4) {
    let octet = 0;
    let digits = 0;
    while (i < end) {
      const c = text.charCodeAt(i) - 48;
      if (c < 0 || c > 9) break;
      if (digits === 1 && octet === 0) return -1;
      octet = octet * 10 + c;
      digits++;
      i++;
    }
    if (digits === 0 || digits > 3 || octet > 255) return -1;
    value = value * 256 + octet;
    octets++;
    if (octets < 4) {
      if (i >= end || text.charCodeAt(i) !== 46 /* . */) return -1;
      i++;
    }
  }
  return i === end ? value : -1;
}

/** Fills `groups` from IPv6 text (with `::` compression and an optional dotted IPv4 tail). */
function parseIPv6(text: string): boolean {
  groups.fill(0);
  const doubleColon = text.indexOf('::');
  if (doubleColon !== -1 && text.indexOf('::', doubleColon + 1) !== -1) return false;
  if (doubleColon === -1) return parseGroups(text, 0, text.length, 0, 8) === 8;

  const headCount = parseGroups(text, 0, doubleColon, 0, 7);
  if (headCount === -1) return false;
  // Parse the tail into the front of the free slots, then slide it to the end.
  const tailCount = parseGroups(text, doubleColon + 2, text.length, headCount, 8 - headCount - 1);
  if (tailCount === -1) return false;
  if (tailCount > 0) {
    groups.copyWithin(8 - tailCount, headCount, headCount + tailCount);
    groups.fill(0, headCount, 8 - tailCount);
  }
  return true;
}

/** Parses colon-separated hex groups from text[start, end) into groups[at…]; at most `max` groups.
 * Returns how many were written (an IPv4 tail counts as two), or -1 when malformed. */
function parseGroups(text: string, start: number, end: number, at: number, max: number): number {
  if (start === end) return 0;
  let count = 0;
  let i = start;
  while (true) {
    const groupStart = i;
    let value = 0;
    while (i < end && i - groupStart < 5) {
      const digit = hexDigit(text.charCodeAt(i));
      if (digit === -1) break;
      value = value * 16 + digit;
      i++;
    }
    if (i < end && text.charCodeAt(i) === 46 /* . */) {
      // The last 32 bits written as IPv4 (::ffff:127.0.0.1)
      const v4 = parseIPv4(text, groupStart, end);
      if (v4 === -1 || count + 2 > max) return -1;
      groups[at + count] = v4 >>> 16;
      groups[at + count + 1] = v4 & 0xffff;
      return count + 2;
    }
    const length = i - groupStart;
    if (length === 0 || length > 4 || count + 1 > max) return -1;
    groups[at + count++] = value;
    if (i === end) return count;
    if (text.charCodeAt(i) !== 58 /* : */ || i + 1 === end) return -1;
    i++;
  }
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}
