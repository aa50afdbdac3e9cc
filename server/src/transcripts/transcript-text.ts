import type { ChatRecord, MessageRecord } from '../store/records.ts';

export interface Transcript {
  subject: string;
  text: string;
}

const clock = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
const day = (ms: number, timeZone: string) => new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'long' }).format(ms);

/** A message as one line of text: media as its file name and link, never as markup. */
function body(m: MessageRecord): string {
  if (m.type === 'location') return `location ${m.media.latitude}, ${m.media.longitude}`;
  const file = m.media.file ? `${m.media.file_name ?? m.type}: ${m.media.file}` : undefined;
  return [m.text ?? m.media.content ?? undefined, file].filter(Boolean).join('\n  ');
}

/**
 * The chat log e-mailed when a chat ends (spec 6.2 "the chat-log e-mail"): plain text, so nothing a visitor or
 * an integrator wrote can become markup in a mail client. It carries the contact info agents and the owner's
 * server added (contact_info of chat_accepted), which spec 6.2 says goes into this e-mail.
 */
export function transcriptText(chat: ChatRecord, messages: MessageRecord[], timeZone = 'UTC'): Transcript {
  const c = chat.client;
  const who = c.name ?? c.email ?? c.phone ?? 'Anonymous';
  const contact = [
    c.name && `Name: ${c.name}`,
    c.email && `E-mail: ${c.email}`,
    c.phone && `Phone: ${c.phone}`,
    c.description && `About: ${c.description}`,
  ].filter(Boolean);
  const lines = messages.map((m) => {
    const author = m.author === 'client' ? who : m.author === 'agent' ? (m.agentName ?? 'Agent') : m.author === 'bot' ? 'Bot' : 'Note';
    return `[${clock(m.createdAt, timeZone)}] ${author}: ${body(m)}`;
  });
  return {
    subject: `Your chat with ${chat.channelName}`,
    text: [
      `Chat with ${chat.channelName} on ${day(chat.createdAt, timeZone)} (times in ${timeZone})`,
      '',
      ...(contact.length ? ['Contact details:', ...contact.map((l) => `  ${l}`), ''] : []),
      ...lines,
      '',
      `Chat #${chat.id}${chat.rate ? `, rated ${chat.rate}` : ''}.`,
    ].join('\n'),
  };
}
