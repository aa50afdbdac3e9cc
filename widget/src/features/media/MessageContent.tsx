import type { VisitorMessageView } from '@svc/protocol';
import { BotContent } from './BotContent.tsx';
import { useState } from 'preact/hooks';
import { safeHttpUrl } from '../../lib/safe-url.ts';
import { formatDuration, formatSize } from '../../ui/format.ts';
import { LinkedText } from '../../ui/LinkedText.tsx';

const OUT = { target: '_blank', rel: 'noopener noreferrer nofollow' } as const;

/** spec 2.1 emoji: shown instead of media that cannot be shown (no safe URL, or it failed to load). */
function Fallback({ message, label }: { message: VisitorMessageView; label: string }) {
  return message.emoji ? (
    <span class="emoji" role="img" aria-label={label}>
      {message.emoji}
    </span>
  ) : (
    <span class="unavailable">{label} (not available)</span>
  );
}

/** Photo and sticker: the thumbnail first (spec 2.1 thumb, 320 px), the full image one click away. */
function Picture({ message, sticker }: { message: VisitorMessageView; sticker: boolean }) {
  const [broken, setBroken] = useState(false);
  const file = safeHttpUrl(message.file);
  const src = safeHttpUrl(message.thumb) ?? file;
  const label = sticker ? 'Sticker' : 'Photo';
  if (!src || broken) return <Fallback message={message} label={label} />;
  const alt = message.emoji ?? message.file_name ?? label;
  const size = message.width && message.height ? { width: message.width, height: message.height } : {};
  const img = <img class={sticker ? 'sticker' : 'photo'} src={src} alt={alt} loading="lazy" {...size} onError={() => setBroken(true)} />;
  return file && !sticker ? (
    <a href={file} {...OUT} aria-label={`${label}: open full size`}>
      {img}
    </a>
  ) : (
    img
  );
}

function Player({ message }: { message: VisitorMessageView }) {
  const file = safeHttpUrl(message.file);
  const kind = message.type === 'video' ? 'Video' : message.type === 'voice' ? 'Voice message' : 'Audio';
  if (!file) return <Fallback message={message} label={kind} />;
  const heading = [message.performer, message.title].filter(Boolean).join(' – ') || message.file_name || kind;
  const duration = formatDuration(message.duration);
  return (
    <figure class="player">
      <figcaption>
        {message.type === 'voice' ? 'Voice message' : heading}
        {duration && <span class="dim"> · {duration}</span>}
      </figcaption>
      {message.type === 'video' ? (
        <video controls preload="none" src={file} poster={safeHttpUrl(message.thumb)} aria-label={heading} />
      ) : (
        <audio controls preload="none" src={file} aria-label={message.type === 'voice' ? 'Voice message' : heading} />
      )}
    </figure>
  );
}

function Document({ message }: { message: VisitorMessageView }) {
  const file = safeHttpUrl(message.file);
  const name = message.file_name || 'Document';
  if (!file) return <Fallback message={message} label={name} />;
  const size = formatSize(message.file_size);
  return (
    <a class="document" href={file} download={message.file_name} {...OUT}>
      <span aria-hidden="true">📄 </span>
      {name}
      {size && <span class="dim"> ({size})</span>}
    </a>
  );
}

function Location({ message }: { message: VisitorMessageView }) {
  const { latitude: lat, longitude: lon } = message;
  if (typeof lat !== 'number' || typeof lon !== 'number') return <Fallback message={message} label="Location" />;
  const map = `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`;
  return (
    <span class="location">
      <span aria-hidden="true">📍 </span>
      Location: {lat.toFixed(5)}, {lon.toFixed(5)}{' '}
      <a href={map} {...OUT}>
        Open map
      </a>
    </span>
  );
}

function Media({ message }: { message: VisitorMessageView }) {
  switch (message.type) {
    case 'photo':
    case 'sticker':
      return <Picture message={message} sticker={message.type === 'sticker'} />;
    case 'video':
    case 'audio':
    case 'voice':
      return <Player message={message} />;
    case 'document':
      return <Document message={message} />;
    case 'location':
      return <Location message={message} />;
    default:
      return <span class="unavailable">This message cannot be shown here.</span>;
  }
}

/**
 * Every message type of spec 2.1 as people expect it; the text of a media message is its caption. Everything
 * from the other side is rendered as text, and only http(s) URLs are ever loaded or linked.
 */
export function MessageContent({ message, choose }: { message: VisitorMessageView; choose?: (text: string, id?: string) => void }) {
  const text = message.text ? <LinkedText text={message.text} /> : null;
  if (message.type === 'text') return text;
  if (message.type === 'markdown' || message.type === 'buttons') return <BotContent message={message} choose={choose} />;
  return (
    <>
      <Media message={message} />
      {text && <p class="caption">{text}</p>}
    </>
  );
}
