import type { VisitorMessageView } from '@svc/protocol';
import { BotContent } from './BotContent.tsx';
import { useState } from 'preact/hooks';
import { safeHttpUrl } from '../../lib/safe-url.ts';
import { formatDuration, formatSize } from '../../ui/format.ts';
import { LinkedText } from '../../ui/LinkedText.tsx';
import type { Texts } from '../../i18n/texts.ts';

const OUT = { target: '_blank', rel: 'noopener noreferrer nofollow' } as const;

/** spec 2.1 emoji: shown instead of media that cannot be shown (no safe URL, or it failed to load). */
function Fallback({ message, label, texts }: { message: VisitorMessageView; label: string; texts: Texts }) {
  return message.emoji ? (
    <span class="emoji" role="img" aria-label={label}>
      {message.emoji}
    </span>
  ) : (
    <span class="unavailable">{texts.t('media.not_available', { label })}</span>
  );
}

/** Photo and sticker: the thumbnail first (spec 2.1 thumb, 320 px), the full image one click away. */
function Picture({ message, sticker, texts }: { message: VisitorMessageView; sticker: boolean; texts: Texts }) {
  const [broken, setBroken] = useState(false);
  const file = safeHttpUrl(message.file);
  const src = safeHttpUrl(message.thumb) ?? file;
  const label = texts.t(sticker ? 'media.sticker' : 'media.photo');
  if (!src || broken) return <Fallback message={message} label={label} texts={texts} />;
  const alt = message.emoji ?? message.file_name ?? label;
  const size = message.width && message.height ? { width: message.width, height: message.height } : {};
  const img = <img class={sticker ? 'sticker' : 'photo'} src={src} alt={alt} loading="lazy" {...size} onError={() => setBroken(true)} />;
  return file && !sticker ? (
    <a href={file} {...OUT} aria-label={texts.t('media.open_full', { label })}>
      {img}
    </a>
  ) : (
    img
  );
}

function Player({ message, texts }: { message: VisitorMessageView; texts: Texts }) {
  const file = safeHttpUrl(message.file);
  const voice = texts.t('media.voice');
  const kind = message.type === 'video' ? texts.t('media.video') : message.type === 'voice' ? voice : texts.t('media.audio');
  if (!file) return <Fallback message={message} label={kind} texts={texts} />;
  const heading = [message.performer, message.title].filter(Boolean).join(' – ') || message.file_name || kind;
  const duration = formatDuration(message.duration);
  return (
    <figure class="player">
      <figcaption>
        {message.type === 'voice' ? voice : heading}
        {duration && <span class="dim"> · {duration}</span>}
      </figcaption>
      {message.type === 'video' ? (
        <video controls preload="none" src={file} poster={safeHttpUrl(message.thumb)} aria-label={heading} />
      ) : (
        <audio controls preload="none" src={file} aria-label={message.type === 'voice' ? voice : heading} />
      )}
    </figure>
  );
}

function Document({ message, texts }: { message: VisitorMessageView; texts: Texts }) {
  const file = safeHttpUrl(message.file);
  const name = message.file_name || texts.t('media.document');
  if (!file) return <Fallback message={message} label={name} texts={texts} />;
  const size = formatSize(message.file_size, texts.locale);
  return (
    <a class="document" href={file} download={message.file_name} {...OUT}>
      <span aria-hidden="true">📄 </span>
      {name}
      {size && <span class="dim"> ({size})</span>}
    </a>
  );
}

function Location({ message, texts }: { message: VisitorMessageView; texts: Texts }) {
  const { latitude: lat, longitude: lon } = message;
  if (typeof lat !== 'number' || typeof lon !== 'number')
    return <Fallback message={message} label={texts.t('media.location')} texts={texts} />;
  const map = `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`;
  return (
    <span class="location">
      <span aria-hidden="true">📍 </span>
      {texts.t('media.location_at', { latitude: lat.toFixed(5), longitude: lon.toFixed(5) })}{' '}
      <a href={map} {...OUT}>
        {texts.t('media.open_map')}
      </a>
    </span>
  );
}

function Media({ message, texts }: { message: VisitorMessageView; texts: Texts }) {
  switch (message.type) {
    case 'photo':
    case 'sticker':
      return <Picture message={message} sticker={message.type === 'sticker'} texts={texts} />;
    case 'video':
    case 'audio':
    case 'voice':
      return <Player message={message} texts={texts} />;
    case 'document':
      return <Document message={message} texts={texts} />;
    case 'location':
      return <Location message={message} texts={texts} />;
    default:
      return <span class="unavailable">{texts.t('media.unsupported')}</span>;
  }
}

/**
 * Every message type of spec 2.1 as people expect it; the text of a media message is its caption. Everything
 * from the other side is rendered as text, and only http(s) URLs are ever loaded or linked.
 */
export function MessageContent({
  message,
  choose,
  texts,
}: {
  message: VisitorMessageView;
  choose?: (text: string, id?: string) => void;
  texts: Texts;
}) {
  const text = message.text ? <LinkedText text={message.text} /> : null;
  if (message.type === 'text') return text;
  if (message.type === 'markdown' || message.type === 'buttons') return <BotContent message={message} choose={choose} texts={texts} />;
  return (
    <>
      <Media message={message} texts={texts} />
      {text && <p class="caption">{text}</p>}
    </>
  );
}
