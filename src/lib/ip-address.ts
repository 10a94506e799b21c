/**
 * Which IP addresses an outbound request (a webhook delivery) may connect to. Refused unless the operator
 * allows private addresses: loopback, private (RFC 1918, unique local), link-local (and so the cloud
 * metadata address 169.254.169.254), CGNAT (100.64/10, which holds Alibaba's metadata address),
 * multicast, unspecified, reserved and documentation ranges, and IPv6 forms that carry an IPv4 address
 * (IPv4-mapped, IPv4-compatible, NAT64, 6to4) when the address they carry is one of those.
 */

/** The 4 bytes of a dotted-quad IPv4 address, or null. */
export function parseIpv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^(0|[1-9]\d{0,2})$/.test(p) ? Number(p) : Number.NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

/** The 16 bytes of an IPv6 address (brackets, a zone id and an embedded dotted quad allowed), or null. */
export function parseIpv6(input: string): number[] | null {
  let text = input.startsWith("[") && input.endsWith("]") ? input.slice(1, -1) : input;
  text = text.split("%")[0]!;
  if (!text.includes(":")) return null;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (!v4) return null;
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    text = `${text.slice(0, lastColon + 1)}0`; // a placeholder group, dropped below
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if (tail.length) (halves.length === 2 ? rest : head).pop();
  const parsed = [...head, ...rest].map((g) => (/^[0-9a-fA-F]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN));
  if (parsed.some(Number.isNaN)) return null;
  const given = parsed.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  const words = [...head.map((g) => Number.parseInt(g, 16)), ...Array(8 - given).fill(0), ...rest.map((g) => Number.parseInt(g, 16)), ...tail];
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

const inV4 = (b: number[], net: number[], bits: number) => {
  for (let i = 0; i < 4; i++) {
    const take = Math.max(0, Math.min(8, bits - i * 8));
    const mask = take === 0 ? 0 : (0xff << (8 - take)) & 0xff;
    if ((b[i]! & mask) !== (net[i]! & mask)) return false;
  }
  return true;
};

const V4_REFUSED: [number[], number][] = [
  [[0, 0, 0, 0], 8], // "this network", unspecified
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10], // CGNAT
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16], // link-local, cloud metadata
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // documentation
  [[192, 88, 99, 0], 24], // 6to4 relay anycast
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, broadcast
];

const publicV4 = (b: number[]) => !V4_REFUSED.some(([net, bits]) => inV4(b, net, bits));

function publicV6(b: number[]): boolean {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return publicV4(b.slice(12)); // ::ffff:a.b.c.d
  if (zeros(0, 12)) return false; // ::, ::1, deprecated IPv4-compatible
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) return zeros(4, 12) ? publicV4(b.slice(12)) : false; // NAT64
  if (b[0] === 0x20 && b[1] === 0x02) return publicV4(b.slice(2, 6)); // 6to4
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return false; // documentation
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00) return false; // Teredo
  if ((b[0]! & 0xfe) === 0xfc) return false; // unique local fc00::/7 (AWS metadata fd00:ec2::254)
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return false; // link-local fe80::/10
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0) return false; // site-local fec0::/10
  if (b[0] === 0xff) return false; // multicast
  return (b[0]! & 0xe0) === 0x20; // global unicast 2000::/3 only
}

/** True for an address a request may be sent to when private addresses are not allowed; false for anything unparsable. */
export function isPublicAddress(address: string): boolean {
  const v4 = parseIpv4(address);
  if (v4) return publicV4(v4);
  const v6 = parseIpv6(address);
  return v6 ? publicV6(v6) : false;
}

/** The literal IP a URL hostname names (without brackets), or null for a DNS name. */
export function ipLiteral(hostname: string): string | null {
  if (parseIpv4(hostname)) return hostname;
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  return parseIpv6(bare) ? bare : null;
}
