import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { build, defineConfig, type Plugin } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The loader and the embed script run on the site's page as classic scripts (IIFEs: a plain `<script>` from
 * another origin needs no CORS, and they carry no Preact and no socket.io), so each is built on its own once
 * the frame is built.
 */
function buildPageScripts(): Plugin {
  return {
    name: 'svc-build-page-scripts',
    apply: 'build',
    async closeBundle() {
      for (const name of ['loader', 'embed', 'triggers']) {
        await build({
          configFile: false,
          logLevel: 'warn',
          build: {
            outDir: here('dist'),
            emptyOutDir: false,
            target: 'es2020',
            // Terser takes the loader a few dozen bytes further than the default minifier (its budget is 2 KB
            // gzipped); keeping small functions and statements apart, rather than inlined into comma chains, lets
            // gzip find more repeats (widget/bench/size.mjs measured it).
            minify: 'terser',
            terserOptions: {
              ecma: 2020,
              compress: { passes: 3, inline: 0, sequences: false, hoist_funs: true, unsafe_arrows: true, pure_getters: true },
            },
            lib: { entry: here(`src/${name}.ts`), formats: ['iife'], name: 'svc', fileName: () => `${name}.js` },
          },
        });
      }
    },
  };
}

/**
 * The frame loads one chunk lazily (its language's catalogue, which needs no CSS and nothing else), so Vite's
 * preload helper, about 0.65 KB gzipped of code for preloading a chunk's CSS and dependencies, has nothing to
 * do: a plain import replaces it.
 */
function plainDynamicImport(): Plugin {
  return {
    name: 'svc-plain-dynamic-import',
    enforce: 'pre',
    apply: 'build',
    load: (id) => (id === '\0vite/preload-helper.js' ? 'export const __vitePreload = (load) => load();' : undefined),
  };
}

/**
 * engine.io-client's table of transports: the frame connects with `transports: ['websocket', 'polling']`
 * (widget/src/transport/visitor-socket.ts), so WebTransport is left out, and long-polling is made with fetch()
 * (engine.io-client's own Fetch transport) rather than its XMLHttpRequest one, written for browsers older than
 * our target. Together about 0.9 KB gzipped less in the frame.
 */
function socketTransports(): Plugin {
  return {
    name: 'svc-socket-transports',
    apply: 'build',
    load: (id) =>
      id.replaceAll('\\', '/').endsWith('/engine.io-client/build/esm/transports/index.js')
        ? 'import { Fetch } from "./polling-fetch.js";\n' +
          'import { WS } from "./websocket.node.js";\n' +
          'export const transports = { websocket: WS, polling: Fetch };\n'
        : undefined,
    // The XMLHttpRequest transport, still re-exported by engine.io-client's index, runs feature tests and adds
    // an unload listener when its module loads: unused, it is left out whole.
    transform: (code, id) =>
      id.replaceAll('\\', '/').endsWith('/engine.io-client/build/esm/transports/polling-xhr.js')
        ? { code, moduleSideEffects: false }
        : undefined,
  };
}

/**
 * The frame and the service exchange only JSON over socket.io (files go by HTTP uploads), so the parsers' binary
 * support (finding, splitting and base64-coding ArrayBuffers and Blobs in packets) has nothing to do: stubs that
 * say "no binary" replace it, about 0.5 KB gzipped less in the frame. A binary packet from the service would be
 * refused as malformed; the service sends none.
 */
function textOnlySocketPackets(): Plugin {
  const stubs: Record<string, string> = {
    '/socket.io-parser/build/esm/is-binary.js': 'export const isBinary = () => false;\nexport const hasBinary = () => false;\n',
    '/socket.io-parser/build/esm/binary.js':
      'export const deconstructPacket = (packet) => ({ packet, buffers: [] });\nexport const reconstructPacket = (packet) => packet;\n',
    '/engine.io-parser/build/esm/contrib/base64-arraybuffer.js':
      "export const encode = () => '';\nexport const decode = () => new ArrayBuffer(0);\n",
  };
  return {
    name: 'svc-text-only-socket-packets',
    apply: 'build',
    load: (id) => {
      const path = id.replaceAll('\\', '/');
      return Object.entries(stubs).find(([end]) => path.endsWith(end))?.[1];
    },
  };
}

// The chat frame: frame.html and its one module chunk (Preact, socket.io-client, the UI), served next to the
// loader at <base>/widget/ and loaded only when the chat is asked for.
export default defineConfig({
  base: './',
  plugins: [
    plainDynamicImport(),
    socketTransports(),
    textOnlySocketPackets(),
    preact({ devtoolsInProd: false, prefreshEnabled: false }),
    buildPageScripts(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    modulePreload: false,
    minify: 'terser',
    terserOptions: { ecma: 2020, compress: { passes: 3, unsafe_arrows: true, pure_getters: true } },
    rollupOptions: {
      input: here('frame.html'),
      // One chunk per language (widget/src/i18n/load-catalogue.ts), named so the size bench can tell them apart.
      output: {
        chunkFileNames: (chunk) =>
          chunk.facadeModuleId?.includes('/i18n/locales/') ? 'assets/locale-[name]-[hash].js' : 'assets/[name]-[hash].js',
      },
    },
  },
});
