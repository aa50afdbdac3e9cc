// nginx in front of several server nodes on loopback, as docs/deployment.md describes: sticky by client
// address (socket.io's polling transport needs every request of a session on one node), WebSocket upgrades,
// and the forwarded headers the nodes trust with SVC_TRUST_PROXY=1. Runs as a child process with every path
// in a temp dir, so it needs no root and leaves nothing behind.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { EngineMissing, freePort, nginxPath } from './engines.mjs';

/**
 * `balance`: `sticky` (by client address: what browsers need, since socket.io's polling transport must stay on
 * one node) or `round-robin` (every request to the next node: for clients on WebSocket only, so that tests
 * from one loopback address really spread over the nodes).
 */
export function nginxConfig({ port, upstreams, dir, balance = 'sticky' }) {
  return `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 11m;
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  upstream svc_nodes {
${balance === 'sticky' ? '    hash $remote_addr consistent;\n' : ''}${upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://svc_nodes;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header Connection "";
      # a node that is down (refused, reset before an answer) hands the request to the next one
      proxy_next_upstream error timeout http_502 http_503;
      proxy_connect_timeout 2s;
    }
    location /socket.io/ {
      proxy_pass http://svc_nodes;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_read_timeout 120s;
      proxy_connect_timeout 2s;
    }
  }
}
`;
}

/** Starts nginx on 127.0.0.1:`port` (a free one by default) in front of `upstreams` (`host:port`). */
export async function startNginx({ upstreams, port, balance }) {
  const bin = nginxPath();
  if (!bin) throw new EngineMissing('nginx', 'nginx');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-nginx-'));
  const listen = port ?? (await freePort());
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, nginxConfig({ port: listen, upstreams, dir, balance }));
  const child = spawn(bin, ['-c', conf, '-p', dir, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d.toString()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    const up = await new Promise((resolve) => {
      const s = net.connect(listen, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${listen}: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port: listen,
    url: `http://127.0.0.1:${listen}`,
    config: conf,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
