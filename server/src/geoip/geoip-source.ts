import type { GeoIp } from '@svc/protocol';
import { isPrivateAddress } from '../lib/outbound-url.ts';

/** Where an address is (spec 2.3 session.geoip). Any source plugs in: an offline database, another file. */
export interface GeoIpSource {
  /** Never throws: an address the source does not know, or cannot read, gives `{}`. */
  lookup(address: string): Promise<GeoIp>;
}

/** SVC_GEOIP=off: every address is unknown. */
export const noGeoIp: GeoIpSource = { lookup: async () => ({}) };

/**
 * Only public addresses are looked up; loopback and private ones (tests, a visitor on the LAN) are `{}`.
 * `::ffff:1.2.3.4` (how Node reports IPv4 peers on a dual-stack socket) is looked up as `1.2.3.4`.
 */
export function publicOnly(source: GeoIpSource): GeoIpSource {
  return {
    async lookup(address) {
      const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
      return isPrivateAddress(plain) ? {} : source.lookup(plain);
    },
  };
}
