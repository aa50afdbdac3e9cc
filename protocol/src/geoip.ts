import { z } from 'zod';

/**
 * spec 2.3 session.geoip: where a visitor's address is, all values strings (latitude "37.422"). A field the
 * data does not know is left out; an address that is not public (loopback, private) gives `{}`.
 */
export const geoIpSchema = z.object({
  region_code: z.string().optional(),
  country: z.string().optional().describe('Country name, in English.'),
  country_code: z.string().optional().describe('ISO 3166-1 alpha-2.'),
  region: z.string().optional(),
  city: z.string().optional(),
  latitude: z.string().optional(),
  longitude: z.string().optional(),
  organization: z.string().optional(),
});
export type GeoIp = z.infer<typeof geoIpSchema>;
