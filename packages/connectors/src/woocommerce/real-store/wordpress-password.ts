import { request } from 'node:https';
import type { RealStore } from './real-stores.ts';

/**
 * A WordPress application password for a real store of the kit, made the way its owner would
 * make one, by HTTP only: sign in at wp-login.php with the administrator's password (store.json
 * has it), take a REST nonce from admin-ajax.php?action=rest-nonce, and POST
 * wp/v2/users/me/application-passwords with the session's cookies and that nonce. WordPress offers
 * application passwords over https, or on any address when the site's environment type is
 * 'local', which the kit's stores are (WP_ENVIRONMENT_TYPE in their wp-config.php): so it works
 * the same in CI, where .ci/run starts the stores as root. A store reset (store.sh reset) puts the
 * database back and forgets the password: make one after each reset. The password is never
 * logged.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  store: RealStore,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${store.url}${path}`,
      {
        method,
        ca: store.ca,
        headers: {
          ...headers,
          ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
        },
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${store.name}: ${path} timed out`)));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** store.json's administrator and password (the RealStore keeps the file's path). */
async function admin(store: RealStore): Promise<{ user: string; password: string }> {
  const { readFile } = await import('node:fs/promises');
  const json = JSON.parse(await readFile(store.file, 'utf8')) as {
    admin_user: string;
    admin_password: string;
  };
  return { user: json.admin_user, password: json.admin_password };
}

export async function makeApplicationPassword(
  store: RealStore,
  name = 'Replatform tests',
): Promise<{ wordpressUser: string; wordpressApplicationPassword: string }> {
  const { user, password } = await admin(store);
  const jar = new Map<string, string>([['wordpress_test_cookie', 'WP Cookie check']]);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (answer: Answer) => {
    const set = answer.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (pair && eq > 0) jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  };
  const form = new URLSearchParams({
    log: user,
    pwd: password,
    'wp-submit': 'Log In',
    redirect_to: `${store.url}/wp-admin/`,
    testcookie: '1',
  }).toString();
  const login = await send(
    store,
    'POST',
    '/wp-login.php',
    { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie() },
    form,
  );
  keep(login);
  if (login.status !== 302 || ![...jar.keys()].some((k) => k.startsWith('wordpress_logged_in')))
    throw new Error(`${store.name}: signing in at wp-login.php failed (HTTP ${login.status})`);
  const nonce = await send(store, 'GET', '/wp-admin/admin-ajax.php?action=rest-nonce', {
    cookie: cookie(),
  });
  if (nonce.status !== 200 || !/^[0-9a-f]{10}$/.test(nonce.body.trim()))
    throw new Error(`${store.name}: no REST nonce from admin-ajax.php (HTTP ${nonce.status})`);
  const made = await send(
    store,
    'POST',
    '/wp-json/wp/v2/users/me/application-passwords',
    { 'content-type': 'application/json', cookie: cookie(), 'x-wp-nonce': nonce.body.trim() },
    JSON.stringify({ name: `${name} ${Date.now()}` }),
  );
  if (made.status !== 201)
    throw new Error(
      `${store.name}: WordPress made no application password (HTTP ${made.status}: ${made.body.slice(0, 200)})`,
    );
  const { password: applicationPassword } = JSON.parse(made.body) as { password: string };
  return { wordpressUser: user, wordpressApplicationPassword: applicationPassword };
}

/** The store with an application password in its credentials (a new one each call). */
export async function withWordPress(store: RealStore): Promise<RealStore> {
  return {
    ...store,
    credentials: { ...store.credentials, ...(await makeApplicationPassword(store)) },
  };
}
