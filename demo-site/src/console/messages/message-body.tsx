import type { MessageView } from '@svc/protocol';
import { BotBody } from './bot-body.tsx';
import { AudioBody, DocumentBody, ImageBody, LocationBody, VideoBody } from './media-body.tsx';

function Media({ message }: { message: MessageView }) {
  switch (message.type) {
    case 'photo':
    case 'sticker':
      return <ImageBody message={message} />;
    case 'video':
      return <VideoBody message={message} />;
    case 'audio':
    case 'voice':
      return <AudioBody message={message} />;
    case 'document':
      return <DocumentBody message={message} />;
    case 'location':
      return <LocationBody message={message} />;
    default:
      return <span class="msg-unavailable">[{String(message.type)} message]</span>;
  }
}

/**
 * What a message says, by type (spec 2.1): the media first, then its text (the caption). Everything the
 * other party wrote goes in as text children, which Preact escapes: never as HTML.
 */
export function MessageBody({ message }: { message: MessageView }) {
  if (message.type === 'text') return <p class="msg-text">{message.text}</p>;
  if (message.type === 'markdown' || message.type === 'buttons') return <BotBody message={message} />;
  return (
    <div class="msg-rich">
      <Media message={message} />
      {message.text && <p class="msg-text msg-caption">{message.text}</p>}
    </div>
  );
}
