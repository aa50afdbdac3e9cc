import type { MessageType, MessageView } from '@svc/protocol';

const LABELS: Record<MessageType, string> = {
  text: '',
  photo: 'Photo',
  sticker: 'Sticker',
  video: 'Video',
  audio: 'Audio',
  voice: 'Voice message',
  document: 'File',
  location: 'Location',
  markdown: '',
  buttons: 'Buttons',
};

/** One line that stands for a message in the inbox and in desktop notifications (plain text, never HTML). */
export function messagePreview(message: MessageView | null): string {
  if (!message) return 'No messages yet';
  const text = message.text?.replace(/\s+/g, ' ').trim() ?? '';
  if (message.type === 'text') return text;
  if (message.type === 'markdown') return text || (message.content ?? '');
  if (message.type === 'buttons') return message.title ?? text;
  const label = message.type === 'document' && message.file_name ? `${LABELS.document}: ${message.file_name}` : LABELS[message.type];
  const head = [message.emoji, label ?? message.type].filter(Boolean).join(' ');
  return text ? `${head} · ${text}` : head;
}
