import { isHttpUrl } from '@svc/protocol';

/**
 * spec 4.4 safe URL: a link from the page is shown to agents only when it is http(s) and its host is on the
 * channel's allowed-domain list. `example.com` allows it and its subdomains, `*.example.com` only the
 * subdomains; an empty list allows every http(s) link.
 */
export function isSafeLink(link: string, safeDomains: string[]): boolean {
  if (!isHttpUrl(link)) return false;
  if (safeDomains.length === 0) return true;
  const host = new URL(link).hostname.toLowerCase().replace(/\.$/, '');
  return safeDomains.some((domain) => {
    if (domain.startsWith('*.')) return host.endsWith(domain.slice(1));
    return host === domain || host.endsWith(`.${domain}`);
  });
}
