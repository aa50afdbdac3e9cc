import type { MessageView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import { formatDuration } from '../lib/format-time.ts';
import { humanSize } from '../lib/human-size.ts';
import { safeHttpUrl } from '../lib/safe-url.ts';
import { ExternalLink } from './external-link.tsx';

/** When the media cannot be shown: the emoji the sender offered as a stand-in (spec 2.1), else a label. */
function Fallback({ message, label }: { message: MessageView; label: string }) {
  return message.emoji ? (
    <span class="msg-emoji" role="img" aria-label={label}>
      {message.emoji}
    </span>
  ) : (
    <span class="msg-unavailable">[{label} unavailable]</span>
  );
}

/** Photo and sticker: the thumbnail when there is one, linking to the full file. */
export function ImageBody({ message }: { message: MessageView }) {
  const [broken, setBroken] = useState(false);
  const label = message.type === 'sticker' ? 'Sticker' : 'Photo';
  const src = safeHttpUrl(message.thumb) ?? safeHttpUrl(message.file);
  if (!src || broken) return <Fallback message={message} label={label} />;
  const image = (
    <img
      class={`msg-image msg-image--${message.type}`}
      src={src}
      alt={message.file_name ?? label}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
    />
  );
  return safeHttpUrl(message.file) ? <ExternalLink href={message.file}>{image}</ExternalLink> : image;
}

export function VideoBody({ message }: { message: MessageView }) {
  const src = safeHttpUrl(message.file);
  if (!src) return <Fallback message={message} label="Video" />;
  return (
    <figure class="msg-media">
      <video class="msg-video" controls preload="metadata" src={src} poster={safeHttpUrl(message.thumb)} />
      <FileCaption message={message} />
    </figure>
  );
}

/** Audio and voice messages. */
export function AudioBody({ message }: { message: MessageView }) {
  const label = message.type === 'voice' ? 'Voice message' : 'Audio';
  const src = safeHttpUrl(message.file);
  if (!src) return <Fallback message={message} label={label} />;
  const heading = [message.performer, message.title].filter(Boolean).join(' – ');
  return (
    <figure class="msg-media">
      {heading && <figcaption class="msg-media-title">{heading}</figcaption>}
      <audio class="msg-audio" controls preload="none" src={src} aria-label={heading || label} />
      <FileCaption message={message} />
    </figure>
  );
}

export function DocumentBody({ message }: { message: MessageView }) {
  const name = message.file_name ?? 'file';
  const size = humanSize(message.file_size);
  if (!safeHttpUrl(message.file)) return <Fallback message={message} label={`File ${name}`} />;
  return (
    <p class="msg-document">
      <span aria-hidden="true">📄 </span>
      <ExternalLink href={message.file} download={name}>
        {name}
      </ExternalLink>
      {size && <span class="muted"> ({size})</span>}
    </p>
  );
}

export function LocationBody({ message }: { message: MessageView }) {
  const { latitude: lat, longitude: lon } = message;
  if (typeof lat !== 'number' || typeof lon !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lon)) {
    return <Fallback message={message} label="Location" />;
  }
  const map = `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`;
  return (
    <p class="msg-location">
      <span aria-hidden="true">📍 </span>
      <span>
        {lat.toFixed(5)}, {lon.toFixed(5)}
      </span>{' '}
      <ExternalLink href={map}>Open in OpenStreetMap</ExternalLink>
    </p>
  );
}

/** Name, size and length under a played file, with a link to download it. */
function FileCaption({ message }: { message: MessageView }) {
  const details = [humanSize(message.file_size), formatDuration(message.duration)].filter(Boolean).join(' · ');
  return (
    <p class="msg-file-caption muted">
      <ExternalLink href={message.file} download={message.file_name}>
        {message.file_name ?? 'Download'}
      </ExternalLink>
      {details && ` (${details})`}
    </p>
  );
}
