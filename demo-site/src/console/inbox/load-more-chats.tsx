import { useEffect, useRef } from 'preact/hooks';

/** The end of a tab's loaded chats: coming into view (the agent scrolled down) asks for the next page. The
 * button does the same for keyboard users and where scrolling does not reach it. */
export function LoadMoreChats({ onVisible }: { onVisible: () => void }) {
  const el = useRef<HTMLButtonElement>(null);
  const latest = useRef(onVisible);
  latest.current = onVisible;

  useEffect(() => {
    const target = el.current;
    if (!target) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) latest.current();
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, []);

  return (
    <button ref={el} type="button" class="load-more link-button" onClick={() => latest.current()}>
      Load more chats
    </button>
  );
}
