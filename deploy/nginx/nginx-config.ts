// The nginx configuration that puts N sandbox replicas behind one address. Every request of a workspace reaches
// the replica that created it: workspace ids start with the replica's REPLICA_ID (`r1-3f9a1c0b7d2e`), and each
// request carries one in its token, its consent state, its `?workspace=` or its path.

/** One replica: its REPLICA_ID and the host:port nginx reaches it at. */
export interface Replica {
  id: string;
  address: string;
}

/** What varies between the compose file's nginx and a test's: the replicas, the listen address, where logs go. */
export interface NginxConfigOptions {
  replicas: readonly Replica[];
  /** nginx's `listen`, e.g. `80` or `127.0.0.1:8080`. */
  listen: string;
  /** `error_log` target. Default /dev/stderr (a container's log). */
  errorLog?: string;
  /** `access_log` target, or `off`. Default /dev/stdout. */
  accessLog?: string;
  /** The user nginx's workers run as, who must own its temp directories (the official image's: `nginx`). */
  user?: string;
  /** A writable directory for request bodies and buffered answers; default nginx's compiled-in one. */
  tempDir?: string;
  /** What one client address may do; each field defaults to EDGE_LIMITS'. */
  limits?: Partial<EdgeLimits>;
}

/** What nginx allows one client address, and how long it waits for a slow one (render.ts flags set them). */
export interface EdgeLimits {
  /** Requests of one address being served at once (limit_conn); more answer 429. */
  connectionsPerAddress: number;
  /** Requests per second of one address, on average (limit_req); beyond it and its burst, 429. */
  requestsPerSecond: number;
  /** Requests one address may send at once above that rate before 429. */
  requestBurst: number;
  /** `POST /_sandbox/workspaces` per minute of one address, counted here once for all replicas; beyond it, 429. */
  createPerMinute: number;
  /** Connections nginx holds at once (worker_connections; a proxied request holds two). */
  workerConnections: number;
  /** Seconds a client has to send its whole request header (client_header_timeout). */
  headerTimeoutSeconds: number;
}

/**
 * The shipped limits. Per address: a docs page and its try-it calls, or a CI job's tests, stay far below them; one
 * address holding more cannot starve the others. Creation matches the replicas' own WORKSPACE_CREATE_PER_MINUTE
 * default (10), so behind nginx the total for all replicas is what one replica alone would allow.
 */
export const EDGE_LIMITS: EdgeLimits = {
  connectionsPerAddress: 64,
  requestsPerSecond: 50,
  requestBurst: 200,
  createPerMinute: 10,
  workerConnections: 8192,
  headerTimeoutSeconds: 5,
};

const REPLICA_ID = /^[a-z0-9]{1,8}$/;
const ADDRESS = /^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:.]+\]:\d{1,5}$/;

// The prefix regexes, in the order the map below tries them: a workspace token (`ws_<id>.<secret>`, the id
// before the first dot is all that is read, so any secret after it works), a consent state (same shape), a
// `?workspace=<id>` (control plane, image URLs), a `/_sandbox/workspaces/<id>` path.
const ID = '(?<r>[a-z0-9]{1,8})-[0-9a-f]{12}';
// `Authorization` as Node reads it (src/access/auth.ts): the scheme in any case, then any whitespace before the token.
// JavaScript's \s also matches a no-break space (byte A0 of a latin1 header value), PCRE's does not.
const BEARER = '^[\\s\\xA0]*(?i:bearer)[\\s\\xA0]+';
// POST /_sandbox/workspaces in any spelling nginx's $uri may carry (it has already decoded %XX and merged slashes):
// counting a spelling the sandbox answers 404 costs nothing, missing one it serves would let creation pass the limit.
const CREATION = '~*^POST /+_sandbox/+workspaces/*$';

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${value}`);
  return value;
}

/** The whole nginx.conf, for `nginx -c` (tests) or /etc/nginx/nginx.conf (the compose file). */
export function nginxConfig(options: NginxConfigOptions): string {
  const { replicas, listen } = options;
  if (replicas.length === 0) throw new Error('at least one replica is needed');
  for (const r of replicas) {
    if (!REPLICA_ID.test(r.id)) throw new Error(`replica id '${r.id}' must be 1 to 8 lowercase letters or digits`);
    if (!ADDRESS.test(r.address)) throw new Error(`replica address '${r.address}' must be host:port`);
  }
  if (new Set(replicas.map((r) => r.id)).size !== replicas.length) throw new Error('replica ids must differ');
  const limits = { ...EDGE_LIMITS, ...options.limits };
  for (const [name, value] of Object.entries(limits)) positive(name, value);
  const temp = options.tempDir
    ? `${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `    ${kind}_temp_path ${options.tempDir}/${kind};`).join('\n')}\n`
    : '';
  const upstreams = replicas
    .map((r) => `    upstream sandbox_${r.id} {\n        server ${r.address};\n        keepalive 16;\n        keepalive_timeout 4s;\n    }`)
    .join('\n');
  const servers = (backup: boolean) => replicas.map((r, i) => `        server ${r.address}${backup && i > 0 ? ' backup' : ''};`).join('\n');
  const byId = replicas.map((r) => `        ${r.id} sandbox_${r.id};`).join('\n');
  return `# Sandbox replicas behind nginx, generated by deploy/nginx/render.ts (regenerate, do not edit).
# Each replica runs with REPLICA_ID=<id>, which prefixes the ids of the workspaces it creates (r1-3f9a1c0b7d2e).
${options.user ? `user ${options.user};\n` : ''}worker_processes 1;
# Each connection is a file descriptor, a proxied one two.
worker_rlimit_nofile ${limits.workerConnections * 2 + 64};
error_log ${options.errorLog ?? '/dev/stderr'} warn;

events {
    worker_connections ${limits.workerConnections};
}

http {
    access_log ${options.accessLog ?? '/dev/stdout'};
    map_hash_bucket_size 128;
    # A slow client is dropped, not waited for: the whole header within ${limits.headerTimeoutSeconds} s, no pause over 10 s while
    # sending a body or reading an answer, an idle kept-alive connection closed after 15 s.
    client_header_timeout ${limits.headerTimeoutSeconds}s;
    client_body_timeout 10s;
    send_timeout 10s;
    keepalive_timeout 15s;
    reset_timedout_connection on;

    # Per client address: requests served at once, and a request rate with a burst. limit_conn counts a request
    # once its header is in; a connection still sending its header is bounded by client_header_timeout and
    # worker_connections. Bodies are read whole before a replica sees the request (proxy_request_buffering), so a
    # slow body holds nginx, never a replica.
    limit_conn_zone $binary_remote_addr zone=per_address:10m;
    limit_req_zone $binary_remote_addr zone=requests_per_address:10m rate=${limits.requestsPerSecond}r/s;
    # Workspace creation, once for all replicas: the key is empty (not counted) for every other request.
    map "$request_method $uri" $sandbox_creation {
        default "";
        "${CREATION}" 1;
    }
    map $sandbox_creation $sandbox_creation_key {
        default "";
        1 $binary_remote_addr;
    }
    limit_req_zone $sandbox_creation_key zone=creations_per_address:1m rate=${limits.createPerMinute}r/m;
    limit_conn_status 429;
    limit_req_status 429;
    limit_conn_log_level warn;
    limit_req_log_level warn;
    # Refusals answer JSON with a message, as the sandbox's own do.
    map "$sandbox_creation:$limit_conn_status" $sandbox_limit_message {
        default "Too many requests from your address; retry after Retry-After seconds.";
        "~:REJECTED" "Too many requests from your address at once; wait for your earlier ones to finish.";
        "~^1:" "Too many workspaces created from your address (${limits.createPerMinute} per minute for the whole service); retry after Retry-After seconds.";
    }
    map $sandbox_creation $sandbox_retry_after {
        default 1;
        1 ${Math.ceil(60 / limits.createPerMinute)};
    }
    # Image uploads are up to 5 MiB plus the multipart envelope; the sandbox answers 413 for larger ones itself.
    client_max_body_size 8m;
${temp}
    # One group per replica. Upstream keep-alive closes before Node's own 5 s, so nginx never reuses a socket
    # the replica is closing.
${upstreams}

    # New workspaces (POST /_sandbox/workspaces): round-robin; a replica that refuses connections is skipped.
    upstream sandbox_new {
${servers(false)}
    }

    # Requests that name no workspace (health, docs, the default world): the first replica, the others only
    # while it is down, so the default world stays one world.
    upstream sandbox_default {
${servers(true)}
    }

    map $http_authorization $sandbox_by_token {
        default "";
        "~${BEARER}ws_${ID}\\." $r;
    }
    map $arg_state $sandbox_by_state {
        default "";
        "~^ws_${ID}\\." $r;
    }
    map $arg_workspace $sandbox_by_query {
        default "";
        "~^${ID}$" $r;
    }
    map $uri $sandbox_by_path {
        default "";
        "~^/_sandbox/workspaces/${ID}(/|$)" $r;
    }
    # The first source that names a replica wins.
    map "$sandbox_by_token:$sandbox_by_state:$sandbox_by_query:$sandbox_by_path" $sandbox_replica {
        default "";
        "~^:*(?<r>[a-z0-9]+)" $r;
    }
    # An id of no listed replica goes to the default group, which answers 404 for a workspace it does not hold.
    map $sandbox_replica $sandbox_upstream {
        default sandbox_default;
${byId}
    }
    map $sandbox_creation $sandbox_pool {
        default $sandbox_upstream;
        1 sandbox_new;
    }

    server {
        listen ${listen};
        error_page 429 @limited;
        error_page 502 503 @unreachable;
        error_page 504 @timed_out;

        location / {
            limit_conn per_address ${limits.connectionsPerAddress};
            limit_req zone=requests_per_address burst=${limits.requestBurst} nodelay;
            # The first ${limits.createPerMinute} at once, then one every ${Math.ceil(60 / limits.createPerMinute)} s.
            limit_req zone=creations_per_address burst=${limits.createPerMinute - 1} nodelay;
            proxy_pass http://$sandbox_pool;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            # The client's Host, so links and image URLs point at nginx, not at a replica.
            proxy_set_header Host $http_host;
            # Replaced, not appended: with TRUST_PROXY=1 a replica then reads the real client address.
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_connect_timeout 2s;
        }

        location @limited {
            default_type application/json;
            add_header Retry-After $sandbox_retry_after always;
            return 429 '{"message":"$sandbox_limit_message"}';
        }

        location @unreachable {
            default_type application/json;
            return 502 '{"message":"The sandbox replica for this request cannot be reached; a workspace it held is gone once it restarts."}';
        }

        location @timed_out {
            default_type application/json;
            return 504 '{"message":"The sandbox replica for this request did not answer in time."}';
        }
    }
}
`;
}
