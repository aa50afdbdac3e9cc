import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** Addresses that are not on the public internet: loopback, private, link-local, unique-local, and the like. */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() !== 'unicast';
}

export interface UrlPolicy {
  /** SVC_ALLOW_PRIVATE_URLS=1: loopback and private addresses allowed, over http or https. */
  allowPrivate: boolean;
}

/**
 * Why the service must not send to this URL, or null when it may. Public addresses must be https
 * (spec 4.2); private and loopback ones only when the operator allows them. Checked when a URL is saved,
 * and again at connect time (see `guardedLookup`) so a DNS answer that changes cannot reach inside.
 */
export async function outboundUrlProblem(raw: string, policy: UrlPolicy): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http:// or https:// URL';
  if (url.username || url.password) return 'must not carry credentials';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      return `host ${host} does not resolve`;
    }
  }
  const isPrivate = addresses.some(isPrivateAddress);
  if (isPrivate && !policy.allowPrivate) return 'points at a private or loopback address (set SVC_ALLOW_PRIVATE_URLS=1 to allow it)';
  if (!isPrivate && url.protocol !== 'https:') return 'must use https:// for a public address';
  return null;
}

/** A `lookup` for http.request that refuses private addresses unless allowed: the connect-time check. */
export function guardedLookup(policy: UrlPolicy): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses as dns.LookupAddress[];
      if (!policy.allowPrivate && list.some((a) => isPrivateAddress(a.address))) {
        return callback(Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EPRIVATE' }), '', 4);
      }
      if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}
