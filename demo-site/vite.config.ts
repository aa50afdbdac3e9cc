import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// The agents' console: the server hands out dist/console at /console/ (server/src/static-sites.ts).
// `vite` (dev) proxies the API and the socket to a server started with `pnpm start` on its default port.
const server = 'http://127.0.0.1:3000';

export default defineConfig({
  root: 'src/console',
  base: '/console/',
  plugins: [preact()],
  build: {
    outDir: '../../dist/console',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: {
      '/api': server,
      '/socket.io': { target: server, ws: true },
    },
  },
});
