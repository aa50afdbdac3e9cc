import { useState } from 'preact/hooks';
import { createAdminApi } from '../admin/admin-api.ts';
import { login } from '../api/api-client.ts';
import { errorText } from '../api/api-error.ts';
import type { SavedSession } from '../session/saved-session.ts';

interface FirstAdminFormProps {
  baseUrl: string;
  onLoggedIn: (session: SavedSession) => void;
  onCancel: () => void;
}

/**
 * A new server has no agent yet: whoever holds the admin API token (printed at the first start) creates the
 * first admin here and is signed in, so the whole set-up can go on in the admin panel.
 */
export function FirstAdminForm({ baseUrl, onLoggedIn, onCancel }: FirstAdminFormProps) {
  const [form, setForm] = useState({ token: '', name: '', email: '', password: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = (key: keyof typeof form) => ({
    value: form[key],
    onInput: (e: Event) => setForm({ ...form, [key]: (e.currentTarget as HTMLInputElement).value }),
  });

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const admin = createAdminApi({
        baseUrl,
        token: form.token.trim(),
        onUnauthorized: () => setError('That is not the admin API token of this server.'),
      });
      const email = form.email.trim();
      await admin.createAgent({ name: form.name, email, password: form.password, role: 'admin' });
      onLoggedIn(await login(baseUrl, { email, password: form.password }));
    } catch (err) {
      setError((current) => current ?? errorText(err));
      setBusy(false);
    }
  };

  return (
    <main class="login">
      <form class="login-card" onSubmit={submit} aria-labelledby="first-admin-title">
        <h1 id="first-admin-title">Create the first admin</h1>
        <p class="muted">The admin API token was printed when the server started for the first time.</p>
        <label for="first-admin-token">Admin API token</label>
        <input id="first-admin-token" type="password" autoComplete="off" required {...field('token')} />
        <label for="first-admin-name">Your name</label>
        <input id="first-admin-name" autoComplete="name" required {...field('name')} />
        <label for="first-admin-email">E-mail</label>
        <input id="first-admin-email" type="email" autoComplete="username" required {...field('email')} />
        <label for="first-admin-password">Password (at least 8 characters)</label>
        <input id="first-admin-password" type="password" autoComplete="new-password" required minLength={8} {...field('password')} />
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="button button--primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create and sign in'}
        </button>
        <button type="button" class="button button--ghost" onClick={onCancel}>
          Back to sign in
        </button>
      </form>
    </main>
  );
}
