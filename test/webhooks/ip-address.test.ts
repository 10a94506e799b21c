/** The outbound address rule: what a webhook may connect to when private addresses are not allowed. */
import { expect, test } from "bun:test";
import { ipLiteral, isPublicAddress, parseIpv6 } from "../../src/lib/ip-address";

const REFUSED = [
  "127.0.0.1",
  "127.255.0.9",
  "10.0.0.1",
  "172.16.3.4",
  "172.31.255.255",
  "192.168.1.1",
  "169.254.169.254",
  "100.64.0.1",
  "100.100.100.200",
  "0.0.0.0",
  "224.0.0.1",
  "255.255.255.255",
  "::",
  "::1",
  "fe80::1",
  "fd00:ec2::254",
  "fc00::5",
  "ff02::1",
  "::ffff:127.0.0.1",
  "::ffff:7f00:1",
  "::ffff:169.254.169.254",
  "::ffff:10.1.2.3",
  "64:ff9b::a00:1",
  "2002:7f00:1::",
  "2001:db8::1",
  "::127.0.0.1",
  "not an address",
  "1.2.3",
  "1.2.3.256",
];
const ALLOWED = ["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"];

test("private, loopback, link-local, CGNAT, multicast, unspecified and mapped forms are refused", () => {
  expect(REFUSED.filter(isPublicAddress)).toEqual([]);
});

test("public addresses are allowed", () => {
  expect(ALLOWED.filter((a) => !isPublicAddress(a))).toEqual([]);
});

test("IPv6 parsing expands :: and embedded IPv4", () => {
  expect(parseIpv6("::1")).toEqual([...Array(15).fill(0), 1]);
  expect(parseIpv6("[::ffff:1.2.3.4]")).toEqual([...Array(10).fill(0), 255, 255, 1, 2, 3, 4]);
  expect(parseIpv6("1:2:3:4:5:6:7:8:9")).toBeNull();
  expect(parseIpv6("1::2::3")).toBeNull();
});

test("ipLiteral tells IP hostnames from DNS names", () => {
  expect(ipLiteral("127.0.0.1")).toBe("127.0.0.1");
  expect(ipLiteral("[::1]")).toBe("::1");
  expect(ipLiteral("localhost")).toBeNull();
  expect(ipLiteral("example.com")).toBeNull();
});
