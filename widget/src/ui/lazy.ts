import { h, type ComponentType } from 'preact';
import { useReducer } from 'preact/hooks';

/** A component loaded on demand, so the chat window's first load stays small. */
export type LazyComponent<P> = ComponentType<P> & { preload: () => Promise<unknown> };

/** How long a part whose chunk could not be fetched waits before asking again. */
const RETRY_MS = 2_000;

/**
 * A component whose code is its own chunk, fetched the first time it is shown (or earlier, by `preload`). It
 * shows nothing until its chunk has come: the parts it is used for are served from the frame's own origin and
 * preloaded once the chat window is idle, so a visitor does not see the gap. Each render that finds the chunk
 * missing asks for it (one request at a time) and renders again once it has come, or a little later when it
 * could not be fetched (the network dropped), which asks again.
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
    const [, rerender] = useReducer((renders: number) => renders + 1, 0);
    if (loaded) return h(loaded, props as never);
    void preload().then(() => (loaded ? rerender(undefined) : setTimeout(rerender, RETRY_MS)));
    return null;
  }
  return Object.assign(Lazy, { preload });
}
