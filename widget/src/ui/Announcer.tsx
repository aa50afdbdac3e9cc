import type { MessageType, VisitorMessageView, WidgetTextKey } from '@svc/protocol';
import type { WidgetModel } from '../frame/widget-model.ts';
import type { Texts } from '../i18n/texts.ts';
import { useStore } from './use-store.ts';

const MEDIA: Partial<Record<MessageType, WidgetTextKey>> = {
  photo: 'media.photo',
  sticker: 'media.sticker',
  video: 'media.video',
  audio: 'media.audio',
  voice: 'media.voice',
  document: 'media.document',
  location: 'media.location',
};

/** "Alex: Hello", "Bot: Photo", a notice of the service as it is, or (null) the chat's end. */
function spoken(message: VisitorMessageView | null, { t }: Texts): string {
  if (!message) return t('messages.ended');
  const content = message.text ?? message.title ?? t(MEDIA[message.type] ?? 'media.unsupported');
  if (message.author === 'system') return content;
  const who = message.author === 'bot' ? t('messages.bot') : (message.agent?.name ?? t('header.agent'));
  return `${who}: ${content}`;
}

/**
 * The polite live region: each message that arrives (and the chat's end) is read out once. The newest
 * announcement is a new node each time (keyed by its id), so two equal replies in a row are both read.
 */
export function Announcer({ model }: { model: WidgetModel }) {
  const announcement = useStore(model.announcement);
  return (
    <div class="sr" aria-live="polite" data-testid="announcements">
      {announcement && <p key={announcement.id}>{spoken(announcement.message, model.texts)}</p>}
    </div>
  );
}
