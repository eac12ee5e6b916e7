// A stand-in for an app under test, as short as an integrator's own: a page with <payroll-link> (the modal at `/`,
// inline at `/inline`), its token route, and its launch pages (`/launch` makes one and goes there), pointed at the
// service by SANDBOX_URL and SANDBOX_SECRET, which payroll-link/testing/sandbox sets in the run's global setup.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createLinkTokenHandler, createPayrollClient } from 'payroll-link/server';
import { createLinkLaunches } from 'payroll-link/server/launches';
import { toNodeHandler } from 'payroll-link/server/node';

/** The widget's files: the element, and the session's code it loads from beside itself on intent. */
const widgetFiles = ['payroll-link.bundled.js', 'payroll-link.session.js'];
const widgetDir = new URL('.', import.meta.resolve('payroll-link/payroll-link.bundled.js'));

const page = (attributes) => `<!doctype html><html lang="en"><meta name="viewport" content="width=device-width">
<title>Acme Lending</title><h1>Connect your payroll</h1>
<script type="module" src="/payroll-link.bundled.js"></script>
<payroll-link ${attributes} token-url="/api/link-token" link-url="${process.env.SANDBOX_URL}/link"></payroll-link>`;

/** Starts the app on `port` of 127.0.0.1; resolves with its URL and its `close()`. */
export async function startApp({ port }) {
  const service = { apiSecret: process.env.SANDBOX_SECRET, baseUrl: process.env.SANDBOX_URL, version: '2025-07-08' };
  const product = { orgName: 'Acme Lending', solution: 'Deposit Switch', features: ['direct_deposit_switch'] };
  const url = `http://127.0.0.1:${port}`;
  const tokens = toNodeHandler(createLinkTokenHandler({ ...service, ...product, resolveEndUserId: () => 'user-123' }));
  const launches = createLinkLaunches({
    ...product,
    client: createPayrollClient({ ...service, mode: 'sandbox' }),
    linkUrl: `${process.env.SANDBOX_URL}/link`,
    publicUrl: `${url}/link`,
    secret: 'a-launch-secret-for-the-playwright-app-0123456789',
    onResult: () => {},
  });
  const launchPages = toNodeHandler(launches.handle);
  const server = createServer(async (request, response) => {
    const path = new URL(request.url, url).pathname;
    if (path.startsWith('/link/')) return launchPages(request, response);
    if (request.method === 'POST' && path === '/api/link-token') return tokens(request, response);
    if (path === '/launch') {
      const launch = await launches.create({ endUserId: `user-${crypto.randomUUID()}` });
      return response.writeHead(303, { location: launch.url }).end();
    }
    if (widgetFiles.includes(path.slice(1))) {
      return response.writeHead(200, { 'content-type': 'text/javascript' }).end(await readFile(new URL(path.slice(1), widgetDir)));
    }
    const html = path === '/' ? page('') : path === '/inline' ? page('display="inline"') : null;
    if (html) return response.writeHead(200, { 'content-type': 'text/html' }).end(html);
    response.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}
