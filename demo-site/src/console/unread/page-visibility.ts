/** Whether the agent can see the console tab: a chat open in a hidden tab is not being read. */
export interface PageVisibility {
  isVisible(): boolean;
  /** Runs `listener` each time the tab is shown or hidden; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export function pageVisibilityOf(doc: Document): PageVisibility {
  return {
    isVisible: () => doc.visibilityState === 'visible',
    subscribe(listener) {
      doc.addEventListener('visibilitychange', listener);
      return () => doc.removeEventListener('visibilitychange', listener);
    },
  };
}
