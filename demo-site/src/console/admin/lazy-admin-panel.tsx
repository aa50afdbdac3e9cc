import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../api/api-error.ts';
import type { AdminPanel, AdminPanelProps } from './admin-panel.tsx';
import { FormError } from './ui/form-error.tsx';

/** Loads the admin panel's code when an admin first opens it: plain agents never download it. */
export function LazyAdminPanel(props: AdminPanelProps) {
  const [Panel, setPanel] = useState<typeof AdminPanel | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    import('./admin-panel.tsx').then(
      (module) => setPanel(() => module.AdminPanel),
      (err: unknown) => setError(`The admin panel could not be loaded: ${errorText(err)}`),
    );
  }, []);
  if (Panel) return <Panel {...props} />;
  return <main class="admin">{error ? <FormError message={error} /> : <p class="muted">Loading…</p>}</main>;
}
