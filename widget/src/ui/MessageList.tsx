import type { VisitorMessageView } from '@svc/protocol';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { MessageContent } from '../features/media/MessageContent.tsx';
import type { WidgetModel } from '../frame/widget-model.ts';
import type { OutboxItem } from '../transport/outbox.ts';
import type { Texts } from '../i18n/texts.ts';
import { Avatar } from './Avatar.tsx';
import { RatingPrompt } from './lazy-features.ts';
import { LinkedText } from './LinkedText.tsx';
import { useStore } from './use-store.ts';

function Time({ iso, texts }: { iso: string; texts: Texts }) {
  return (
    <time dateTime={iso} title={texts.dateTime(iso)}>
      {texts.time(iso)}
    </time>
  );
}

function Message({ message, choose, texts }: { message: VisitorMessageView; choose?: (text: string, id?: string) => void; texts: Texts }) {
  const { t } = texts;
  if (message.author === 'system')
    return (
      <li class="msg system">
        <LinkedText text={message.text ?? ''} />
      </li>
    );
  const mine = message.author === 'visitor';
  const agent = message.author === 'agent' ? (message.agent ?? { name: t('header.agent'), photo: null }) : null;
  const who = mine ? t('messages.you') : agent ? agent.name : t('messages.bot');
  return (
    <li class={`msg ${mine ? 'mine' : 'theirs'}${agent ? ' by-agent' : ''}`}>
      {agent && <Avatar agent={agent} />}
      {!mine && <span class="name">{who}</span>}
      {mine && <span class="sr">{t('messages.you_said')}</span>}
      <div class="bubble">
        <MessageContent message={message} choose={choose} texts={texts} />
      </div>
      <div class="meta">
        <Time iso={message.created_at} texts={texts} />
        {mine && <span class="delivery">{t('delivery.sent')}</span>}
      </div>
    </li>
  );
}

const DELIVERY = { queued: 'delivery.queued', sending: 'delivery.sending', failed: 'delivery.failed' } as const;

/** A message of the visitor the server has not confirmed yet, with its delivery state. */
function Pending({ item, retry, online, texts }: { item: OutboxItem; retry: (id: string) => void; online: boolean; texts: Texts }) {
  const { t } = texts;
  return (
    <li class={`msg mine ${item.state}`}>
      <span class="sr">{t('messages.you_said')}</span>
      <div class="bubble">
        {item.attachment && <p class="attachment-name">📎 {item.attachment.file_name}</p>}
        <LinkedText text={item.text} />
      </div>
      <div class="meta">
        <Time iso={item.created_at} texts={texts} />
        <span class="delivery">{t(item.state === 'queued' && online ? DELIVERY.sending : DELIVERY[item.state])}</span>
        {item.state === 'failed' && (
          <>
            {' '}
            <button type="button" class="link" onClick={() => retry(item.client_msg_id)}>
              {t('delivery.retry')}
            </button>
          </>
        )}
      </div>
    </li>
  );
}

/** The conversation: the server's messages, then the visitor's messages still on their way. */
export function MessageList({ model }: { model: WidgetModel }) {
  const { messages, endedAfter, invitation, live, older } = useStore(model.conversation);
  const team = useStore(model.title);
  const outbox = useStore(model.outbox);
  const online = useStore(model.connection) === 'online';
  const { texts } = model;
  const { t } = texts;
  const log = useRef<HTMLDivElement>(null);
  // The first message shown and the height below the view: a page put above keeps what is read in place.
  const kept = useRef({ first: 0, below: 0, top: 0, height: 0 });
  const first = messages[0]?.id ?? 0;
  useLayoutEffect(() => {
    const el = log.current;
    const pagePutAbove = kept.current.first && first !== kept.current.first;
    // Back to what was read at once: the log scrolls smoothly, and a scroll animated up from the top would
    // read as the visitor asking for the page before that one too.
    if (el) el.scrollTo({ top: el.scrollHeight - (pagePutAbove ? kept.current.below : 0), behavior: pagePutAbove ? 'instant' : 'auto' });
    kept.current.first = first;
  }, [messages.length, outbox.length, endedAfter, first]);
  const onScroll = () => {
    const { scrollTop: top, scrollHeight, clientHeight: height } = log.current!;
    const k = kept.current;
    // Only the visitor's own scrolling up asks, not a window that grows as it opens.
    if (top < 50 && top < k.top && height === k.height) model.loadOlder(k.first);
    Object.assign(k, { below: scrollHeight - top, top, height });
  };
  // While the bot is the one answering, the visitor can ask for a person; only the newest buttons can be chosen.
  const lastAnswer = [...messages].reverse().find((m) => m.author !== 'visitor');
  const botAnswering = lastAnswer?.author === 'bot' && lastAnswer.id !== endedAfter;
  const [asking, setAsking] = useState(false);
  // spec 2.3 chat.rate, at the end of a chat an agent answered in, until the visitor writes again.
  const endedChat = messages.find((m) => m.id === endedAfter)?.chat_id;
  const askRating = !live && online && messages.some((m) => m.chat_id === endedChat && m.author === 'agent');
  const askForPerson = async () => {
    setAsking(true);
    await model.requestAgent();
    setAsking(false);
  };
  return (
    // A log is polite by itself, but it would read out the whole history a session brings back: the
    // Announcer (App.tsx) says each new message once instead.
    <div class="log" role="log" aria-label={t('messages.label')} aria-live="off" tabIndex={0} ref={log} onScroll={onScroll}>
      <ol>
        {invitation ? (
          <li class="msg theirs invitation">
            <span class="name">{team}</span>
            <div class="bubble">
              <LinkedText text={invitation} />
            </div>
          </li>
        ) : (
          // The greeting opens the chat and stays above it, as the question the visitor's first message answers:
          // shown here only, never stored or sent.
          !older && (
            <li class="msg theirs greeting">
              <span class="name">{team}</span>
              <div class="bubble">{t('greeting')}</div>
            </li>
          )
        )}
        {messages.map((m) => [
          <Message key={m.id} message={m} choose={botAnswering && m.id === lastAnswer.id ? model.send : undefined} texts={texts} />,
          m.id === endedAfter && (
            <li key={`end-${m.id}`} class="msg system ended">
              {t('messages.ended')}
            </li>
          ),
          m.id === endedAfter && askRating && <RatingPrompt key={`rate-${m.chat_id}`} model={model} chatId={m.chat_id} />,
        ])}
        {outbox.map((item) => (
          <Pending key={item.client_msg_id} item={item} retry={model.retry} online={online} texts={texts} />
        ))}
        {botAnswering && online && (
          <li class="msg system">
            <button type="button" class="link" disabled={asking} onClick={() => void askForPerson()}>
              {t('messages.talk_to_person')}
            </button>
          </li>
        )}
      </ol>
    </div>
  );
}
