// nginx as the load balancer in front of several server nodes (`pnpm cluster`, the fault suite's cluster): a
// config file and every path nginx writes (pid, logs, temp files) in one temp dir, so it runs without root and
// leaves nothing behind.
// docs/deployment.md has the same proxy settings for a real deployment.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EngineMissing, freePort, nginxPath } from './engines.mjs';

/**
 * The config: one upstream of the nodes, WebSocket upgrades for socket.io. `balance`: `sticky` (by client
 * address, what browsers need) or `round-robin` (each request to the next node: for clients on WebSocket only,
 * so that tests from one loopback address really spread over the nodes).
 */
export function nginxConfig({ dir, port, upstreams, balance = 'sticky' }) {
  const at = (name) => path.join(dir, name);
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return `# Written by scripts/lib/nginx.mjs; removed when it stops.
${asRoot ? '# As root the workers run as nobody; they only write the temp paths, which nginx creates for them.\n' : ''}worker_processes 1;
pid ${at('nginx.pid')};
error_log ${at('error.log')} warn;
events { worker_connections 1024; }

http {
  # Which node answered each request.
  log_format svc '$remote_addr "$request" $status node=$upstream_addr $request_time s';
  access_log ${at('access.log')} svc;
  client_body_temp_path ${at('client_body')};
  proxy_temp_path ${at('proxy')};
  fastcgi_temp_path ${at('fastcgi')};
  uwsgi_temp_path ${at('uwsgi')};
  scgi_temp_path ${at('scgi')};

  # Uploads: the server's own limit (UPLOAD_LIMIT_BYTES in server/src/uploads/upload-store.ts).
  client_max_body_size 10m;

  # socket.io's polling transport sends each request of a session to the node that holds the session, so
  # one client address always goes to one node; "consistent" moves few clients when a node leaves.
  upstream svc_nodes {
${balance === 'sticky' ? '    hash $remote_addr consistent;\n' : ''}${upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=5s;`).join('\n')}
    # Fewer idle connections kept than requests in flight (keepalive 16 at 50 at once) had nginx open a connection
    # per request over it: the nodes spent ~1.9x the CPU per Chat API message (cluster-bench.ts).
    keepalive 128;
  }

  map $http_upgrade $connection_upgrade {
    default upgrade;
    '' close;
  }

  server {
    listen 127.0.0.1:${port};

    location /socket.io/ {
      proxy_pass http://svc_nodes;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      # A WebSocket is quiet between socket.io's pings (25 s); a polling request waits up to that long.
      proxy_read_timeout 1h;
      proxy_send_timeout 1h;
      proxy_buffering off;
    }

    location / {
      proxy_pass http://svc_nodes;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`;
}

/**
 * Starts nginx in the foreground on 127.0.0.1:`port` in front of `upstreams` ("host:port" each). Answers
 * `{ url, dir, config, child, stop() }`; `stop()` ends it and removes its temp dir.
 */
export async function startNginx({ port, upstreams, balance }) {
  const bin = nginxPath();
  if (!bin) throw new EngineMissing('nginx', 'nginx');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-nginx-'));
  // Workers (nobody, when started as root) must reach the temp paths inside it.
  fs.chmodSync(dir, 0o755);
  const config = path.join(dir, 'nginx.conf');
  port ??= await freePort();
  fs.writeFileSync(config, nginxConfig({ dir, port, upstreams, balance }));
  // -e: the log nginx writes before it has read the config (else /var/log/nginx/error.log).
  const child = spawn(bin, ['-e', path.join(dir, 'error.log'), '-c', config, '-p', dir, '-g', 'daemon off;'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    // Off the terminal's process group: a Ctrl-C reaches the cluster script, which stops nginx after the nodes.
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const errorLog = () => (fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : '');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = errorLog();
      await stop();
      throw new Error(`nginx exited with code ${child.exitCode}:\n${log}`);
    }
    if (await answers(`${url}/healthz`)) break;
    if (Date.now() > deadline) {
      const log = errorLog();
      await stop();
      throw new Error(`nginx did not answer on ${url} within 10 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, dir, config, child, errorLog, stop };
}

async function answers(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}
