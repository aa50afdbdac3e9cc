import { h, type ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** A component loaded on demand, so the chat window's first load stays small. */
export type LazyComponent<P> = ComponentType<P> & { preload: () => Promise<unknown> };

/**
 * A component whose code is its own chunk, fetched the first time it is shown (or earlier, by `preload`). It
 * shows nothing until its chunk has come: the forms it is used for are served from the frame's own origin and
 * preloaded once the chat window is idle, so a visitor never sees the gap. A chunk that failed to load is
 * asked for again the next time.
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
      if (!loaded) void preload().then(() => setLoaded(!!loaded));
    }, []);
    return loaded ? h(loaded, props as never) : null;
  }
  return Object.assign(Lazy, { preload });
}
