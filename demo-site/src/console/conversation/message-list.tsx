import type { ChatView, MessageView } from '@svc/protocol';
import { useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks';
import { authorName, MessageItem } from '../messages/message-item.tsx';
import { messagePreview } from '../messages/message-preview.ts';
import type { MessageFocus } from './conversation-store.ts';
import './message-list.css';
import { layoutRows, rowAt, totalHeight, windowOf, type RowLayout, type RowWindow } from './message-window.ts';

interface MessageListProps {
  chat: ChatView;
  messages: readonly MessageView[];
  /** Older messages exist than the first one shown. */
  hasOlder: boolean;
  loadingOlder: boolean;
  /** The agent scrolled up to the oldest loaded message. */
  onScrolledToTop: () => void;
  meId: number;
  onResend?: (messageId: number) => void;
  focus?: MessageFocus | null;
}

/** How close to the top, in pixels, the older page is asked for: before the agent hits the top. */
const OLDER_MARGIN_PX = 300;
/** This close to the bottom, the view follows new messages. */
const PINNED_SLACK_PX = 80;
/** Rows kept in the DOM beyond each edge of the view, in view heights: room for a flick or Page Up. */
const OVERSCAN_VIEWS = 1;
/** Where a focused message is put: this share of the view below its top edge. */
const FOCUS_AT = 1 / 3;

/** What the view holds still: the bottom (it follows new messages), or a row and how far below the top of
 * the view that row starts (negative when it starts above). */
type Anchor = { kind: 'bottom' } | { kind: 'row'; id: number; offset: number };

/** The row of the message with this id; ids grow with time, as the list is ordered. -1 when not loaded. */
function indexOfId(messages: readonly MessageView[], id: number): number {
  let lo = 0;
  let hi = messages.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = messages[mid]!.id;
    if (at === id) return mid;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The history as a windowed list: only the messages near the view are in the DOM, spacing stands in for the
 * others (rows are measured as they show, unmeasured ones count as the average), so a chat of any length keeps
 * the page small. It stays at the newest message unless the agent scrolled up to read; what is read stays still
 * when an older page is put above or a row above changes height (an image loads); scrolling up to the top loads
 * the older page.
 */
export function MessageList({ chat, messages, hasOlder, loadingOlder, onScrolledToTop, meId, onResend, focus }: MessageListProps) {
  const log = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const [measures, remeasured] = useReducer((n: number) => n + 1, 0);
  const heights = useRef(new Map<number, number>());
  const anchor = useRef<Anchor>({ kind: 'bottom' });
  const gap = useRef(0);
  const listTop = useRef(0);
  /** Where the view was when the anchor was last taken or put back. */
  const knownScrollTop = useRef(0);
  const shownChat = useRef(chat.id);
  if (shownChat.current !== chat.id) {
    shownChat.current = chat.id;
    heights.current.clear();
    anchor.current = { kind: 'bottom' };
  }

  const layout = useMemo(
    () =>
      layoutRows(
        messages.map((m) => heights.current.get(m.id)),
        gap.current,
      ),
    [messages, measures],
  );
  const viewHeight = log.current?.clientHeight || window.innerHeight;
  const overscan = viewHeight * OVERSCAN_VIEWS;
  const shown = windowOf(layout, viewTopOf(anchor.current, layout, messages, viewHeight) - overscan, viewHeight + 2 * overscan);
  const latest = useRef({ layout, messages, shown, hasOlder, loadingOlder, onScrolledToTop });
  latest.current = { layout, messages, shown, hasOlder, loadingOlder, onScrolledToTop };

  // After every render: measure the rows shown, then put the anchor back where it was in the view.
  useLayoutEffect(() => {
    const el = log.current;
    const ol = list.current;
    if (!el || !ol) return;
    if (measureRows(ol, heights.current, gap)) return remeasured(0);
    listTop.current = ol.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop;
    // A scroll whose event has not come yet (the agent, a jump to the end): its event sets the anchor;
    // putting the old anchor back now would undo it.
    if (Math.abs(el.scrollTop - knownScrollTop.current) >= 1) return;
    const a = anchor.current;
    const index = a.kind === 'row' ? indexOfId(messages, a.id) : -1;
    const target =
      a.kind === 'bottom' || index === -1 ? el.scrollHeight - el.clientHeight : listTop.current + layout.starts[index]! - a.offset;
    // Only when it moved: setting it, even to the same place, stops a smooth scroll (keys, wheel) on its way.
    if (Math.abs(el.scrollTop - target) >= 1) el.scrollTop = target;
    // The browser may not scroll as far as asked (the list is shorter): hold what is really at the top.
    reanchor(el);
    if (!covers(shown, wanted(layout, el.scrollTop - listTop.current, el.clientHeight))) remeasured(0);
  });

  // Rows that change height after they were shown (an image, a font): measured again, the view held still.
  useEffect(() => {
    const ol = list.current;
    if (!ol || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (measureRows(ol, heights.current, gap)) remeasured(0);
    });
    for (const row of ol.children) observer.observe(row);
    return () => observer.disconnect();
    // Observed again only when other rows are rendered: a new observer reports (and so measures) every row once.
  }, [shown.start, shown.end, messages]);

  // Rows come and go as the agent scrolls, so the log itself is not live: a message arriving after the chat
  // was shown is announced on its own.
  const [announcement, setAnnouncement] = useState('');
  const newest = messages.at(-1);
  const announcedUpTo = useRef<number | null>(null);
  useEffect(() => {
    if (!newest) return;
    if (announcedUpTo.current !== null && newest.id > announcedUpTo.current)
      setAnnouncement(`${authorName(newest, chat, meId)}: ${messagePreview(newest)}`);
    announcedUpTo.current = Math.max(announcedUpTo.current ?? 0, newest.id);
  }, [newest?.id]);

  const focusLoaded = !!focus && indexOfId(messages, focus.messageId) !== -1;
  useEffect(() => {
    if (!focus || !focusLoaded) return;
    anchor.current = { kind: 'row', id: focus.messageId, offset: (log.current?.clientHeight ?? 0) * FOCUS_AT };
    remeasured(0);
  }, [focus?.at, focusLoaded]);

  /** The anchor from where the view really is. */
  const reanchor = (el: HTMLDivElement) => {
    knownScrollTop.current = el.scrollTop;
    const now = latest.current;
    const y = el.scrollTop - listTop.current;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < PINNED_SLACK_PX || now.messages.length === 0)
      anchor.current = { kind: 'bottom' };
    else {
      const row = rowAt(now.layout, y);
      anchor.current = { kind: 'row', id: now.messages[row]!.id, offset: now.layout.starts[row]! - y };
    }
  };

  // End goes to the newest message and stays there. The browser's own End scrolls (smoothly) to the bottom of
  // the list as it was when the key was pressed, while the rows shown on the way are measured and may make the
  // list taller: it could stop short of the newest message.
  const onKeyDown = (event: KeyboardEvent) => {
    const el = log.current;
    if (!el || event.key !== 'End' || event.altKey || event.shiftKey || event.metaKey) return;
    event.preventDefault();
    anchor.current = { kind: 'bottom' };
    el.scrollTop = el.scrollHeight;
    knownScrollTop.current = el.scrollTop;
    remeasured(0);
  };

  const onScroll = () => {
    const el = log.current;
    if (!el) return;
    const now = latest.current;
    reanchor(el);
    if (!covers(now.shown, wanted(now.layout, el.scrollTop - listTop.current, el.clientHeight))) remeasured(0);
    if (now.hasOlder && !now.loadingOlder && el.scrollTop < OLDER_MARGIN_PX) now.onScrolledToTop();
  };

  return (
    <div
      class="message-log"
      ref={log}
      role="log"
      aria-live="off"
      aria-label="Messages"
      tabIndex={0}
      onScroll={onScroll}
      onKeyDown={onKeyDown}
      style={{ overflowAnchor: 'none' }}
    >
      <p class="sr-only" role="status">
        {announcement}
      </p>
      {hasOlder && (
        <p class="muted older-messages">
          <button type="button" class="link-button" disabled={loadingOlder} onClick={onScrolledToTop}>
            {loadingOlder ? 'Loading earlier messages…' : 'Load earlier messages'}
          </button>
        </p>
      )}
      {messages.length === 0 ? (
        <p class="muted empty">No messages yet.</p>
      ) : (
        <ol
          class="messages"
          ref={list}
          aria-busy={loadingOlder}
          style={{ paddingTop: `${shown.padTop}px`, paddingBottom: `${shown.padBottom}px` }}
        >
          {messages.slice(shown.start, shown.end).map((m) => (
            <MessageItem key={m.id} message={m} chat={chat} meId={meId} onResend={onResend} focused={m.id === focus?.messageId} />
          ))}
        </ol>
      )}
    </div>
  );
}

/** Where the view's top edge is in the list, as the anchor puts it. */
function viewTopOf(a: Anchor, layout: RowLayout, messages: readonly MessageView[], viewHeight: number): number {
  const index = a.kind === 'row' ? indexOfId(messages, a.id) : -1;
  if (a.kind === 'bottom' || index === -1) return totalHeight(layout) - viewHeight;
  return layout.starts[index]! - a.offset;
}

/** The rows that must be in the DOM for the view at `y`: the view and half the overscan around it, so the
 * list renders again only once the agent scrolled halfway into what was rendered beyond the edge. */
function wanted(layout: RowLayout, y: number, viewHeight: number): RowWindow {
  const margin = (viewHeight * OVERSCAN_VIEWS) / 2;
  return windowOf(layout, y - margin, viewHeight + 2 * margin);
}

const covers = (shown: RowWindow, need: RowWindow) => need.start >= shown.start && need.end <= shown.end;

/** Reads the rendered rows' heights (and the gap between rows) into `heights`; true when one changed. */
function measureRows(ol: HTMLOListElement, heights: Map<number, number>, gap: { current: number }): boolean {
  let changed = false;
  const rowGap = parseFloat(getComputedStyle(ol).rowGap) || 0;
  if (rowGap !== gap.current) {
    gap.current = rowGap;
    changed = true;
  }
  for (const row of ol.children) {
    const id = Number((row as HTMLElement).dataset.messageId);
    const height = row.getBoundingClientRect().height;
    const before = heights.get(id);
    if (before !== undefined && Math.abs(before - height) < 0.5) continue;
    heights.set(id, height);
    changed = true;
  }
  return changed;
}
