// First: before any module that builds a zod schema (the console runs under a CSP without 'unsafe-eval').
import '@svc/protocol/strict-csp';
import { render } from 'preact';
import { App } from './app.tsx';
import { createDesktopNotifier } from './notifications/desktop-notifier.ts';
import { createSessionStorage } from './session/saved-session.ts';
import './styles.css';

// The entry: the one place that touches the page's globals and builds the long-lived objects.
const root = document.getElementById('app');
if (!root) throw new Error('The console page has no #app element');

render(
  <App
    baseUrl={window.location.origin}
    sessions={createSessionStorage(window.localStorage)}
    notifier={createDesktopNotifier(window)}
    win={window}
  />,
  root,
);
