import { describe, expect, it } from 'vitest';
import { dbIpCitySource, toGeoIp } from '../src/geoip/dbip-city.ts';
import { noGeoIp, publicOnly } from '../src/geoip/geoip-source.ts';
import { createLogger } from '../src/logger.ts';

// One source for the file: each data file is read once, on its family's first lookup.
const geoip = publicOnly(dbIpCitySource({ log: createLogger('silent') }));

describe('geoip lookup (DB-IP City Lite, offline)', () => {
  it('places a public IPv4 address with a country, its name, a city and coordinates, all strings', async () => {
    const where = await geoip.lookup('8.8.8.8');
    expect(where).toMatchObject({ country_code: 'US', country: 'United States' });
    expect(Object.values(where).every((v) => typeof v === 'string' && v !== '')).toBe(true);
    expect(where.city).toEqual(expect.any(String));
    expect(Number(where.latitude)).toBeGreaterThan(-90);
    expect(where.latitude).toMatch(/^-?\d+(\.\d{1,4})?$/);
    expect(where.longitude).toMatch(/^-?\d+(\.\d{1,4})?$/);
  });

  it('places an IPv4 address written the way a dual-stack socket reports it', async () => {
    expect(await geoip.lookup('::ffff:8.8.8.8')).toMatchObject({ country_code: 'US' });
  });

  it('places a public IPv6 address', async () => {
    expect((await geoip.lookup('2001:4860:4860::8888')).country_code).toMatch(/^[A-Z]{2}$/);
  });

  it.each(['127.0.0.1', '::1', '10.1.2.3', '192.168.0.10', '::ffff:127.0.0.1', 'fe80::1', 'not an address', ''])(
    'gives {} for %j, which is not a public address',
    async (address) => {
      expect(await geoip.lookup(address)).toEqual({});
    },
  );

  it('gives {} for everything when turned off (SVC_GEOIP=off)', async () => {
    expect(await noGeoIp.lookup('8.8.8.8')).toEqual({});
  });

  it('leaves out what the data does not know instead of sending empty strings', () => {
    expect(toGeoIp({ country_code: 'GB', state1: '', city: 'London', latitude: 51.51430130004883 })).toEqual({
      country_code: 'GB',
      country: 'United Kingdom',
      city: 'London',
      latitude: '51.5143',
    });
    expect(toGeoIp(null)).toEqual({});
  });
});
