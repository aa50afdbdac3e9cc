import type { ComponentChildren } from 'preact';
import { safeHttpUrl } from '../lib/safe-url.ts';

interface ExternalLinkProps {
  href: string | null | undefined;
  children: ComponentChildren;
  download?: string;
  class?: string;
}

/** A link to somewhere the other party chose: http(s) only, in a new tab that cannot reach back to the
 * console (noopener) nor learn where it came from (noreferrer). Anything else renders as plain text. */
export function ExternalLink({ href, children, download, class: className }: ExternalLinkProps) {
  const safe = safeHttpUrl(href);
  if (!safe) return <span class={className}>{children}</span>;
  return (
    <a class={className} href={safe} target="_blank" rel="noopener noreferrer" download={download}>
      {children}
    </a>
  );
}
