import { h, type ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** A component loaded on demand, so the chat window's first load stays small. */
export type LazyComponent<P> = ComponentType<P> & { preload: () => Promise<unknown> };

/** How long a part whose chunk could not be fetched waits before asking again. */
const RETRY_MS = 2_000;

/**
 * A component whose code is its own chunk, fetched the first time it is shown (or earlier, by `preload`). It
 * shows nothing until its chunk has come: the parts it is used for are served from the frame's own origin and
 * preloaded once the chat window is idle, so a visitor does not see the gap. A chunk that could not be fetched
 * (the network dropped) is asked for again while the part is wanted.
 */
export function lazy<P>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<unknown> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      () => (loading = undefined),
    ));
  function Lazy(props: P) {
    const [, setLoaded] = useState(!!loaded);
    useEffect(() => {
      let wanted = true;
      let retry: ReturnType<typeof setTimeout> | undefined;
      const attempt = () =>
        void preload().then(() => {
          if (!wanted) return;
          if (loaded) setLoaded(true);
          else retry = setTimeout(attempt, RETRY_MS);
        });
      if (!loaded) attempt();
      return () => {
        wanted = false;
        clearTimeout(retry);
      };
    }, []);
    return loaded ? h(loaded, props as never) : null;
  }
  return Object.assign(Lazy, { preload });
}
