/**
 * spec 2.3 session.geoip: where a visitor's address is, all values strings (latitude "37.422"). A field the
 * data does not know is left out; an address that is not public (loopback, private) gives `{}`.
 */
export interface GeoIp {
  region_code?: string;
  /** Country name, in English. */
  country?: string;
  /** ISO 3166-1 alpha-2. */
  country_code?: string;
  region?: string;
  city?: string;
  latitude?: string;
  longitude?: string;
  organization?: string;
}
