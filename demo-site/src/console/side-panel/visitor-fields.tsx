import type { ClientView } from '@svc/protocol';
import type { ComponentChildren } from 'preact';
import { ExternalLink } from '../messages/external-link.tsx';

export function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** What a widget page told about its visitor (spec 4.4 and 2.3): shown only when present. */
export function VisitorFields({ client }: { client: ClientView }) {
  const utm = Object.entries(client.utm ?? {});
  const customData = client.custom_data ?? [];
  const geoip = client.geoip ?? {};
  // City, region, country: the parts the address data knows, as plain text.
  const location = [geoip.city, geoip.region, geoip.country ?? geoip.country_code].filter(Boolean).join(', ');
  return (
    <>
      {client.visitor_number != null && <Field label="Visitor">#{client.visitor_number}</Field>}
      {client.description && <Field label="About">{client.description}</Field>}
      {client.user_token && (
        // Verified: the site's server signed the id; anything else the page says about the visitor is unproven.
        <Field label="User ID">
          {client.user_token}{' '}
          <span class={client.user_verified ? 'verify-badge verified' : 'verify-badge unverified'}>
            {client.user_verified ? 'Verified' : 'Not verified'}
          </span>
        </Field>
      )}
      {client.page_title && <Field label="Page title">{client.page_title}</Field>}
      {client.referrer && (
        <Field label="Came from">
          <ExternalLink href={client.referrer}>{client.referrer}</ExternalLink>
        </Field>
      )}
      {utm.length > 0 && (
        <Field label="Campaign">
          {utm.map(([key, value]) => (
            <span key={key} class="field-line">
              {key}: {value}
            </span>
          ))}
        </Field>
      )}
      {customData.map((item, i) => (
        // spec 2.3 field: title above, then the key in bold before a colon, then the content (a link when given).
        <Field key={i} label={item.title ?? 'Data'}>
          {item.key && <strong>{item.key}: </strong>}
          {item.link ? <ExternalLink href={item.link}>{item.content ?? item.link}</ExternalLink> : item.content}
        </Field>
      ))}
      {client.user_agent && <Field label="Browser">{client.user_agent}</Field>}
      {client.ip && <Field label="IP address">{client.ip}</Field>}
      {location && (
        <Field label="Location">
          <span class="field-line">{location}</span>
          {/* The DB-IP Lite data is CC BY 4.0: pages that show its results link back to DB-IP. */}
          <ExternalLink href="https://db-ip.com" class="field-line">
            IP Geolocation by DB-IP
          </ExternalLink>
        </Field>
      )}
    </>
  );
}
