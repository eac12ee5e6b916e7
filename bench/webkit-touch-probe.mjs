// Can WebKitGTK, driven by its WebDriver, stand in for a phone in bench 1b (#28)? Opens a 390x844 window in
// MiniBrowser (test/browser/webkit-driver.mjs), reads what the page sees (`(hover: none)`, `(pointer: coarse)`,
// touch support), then taps a button with W3C actions of `pointerType: 'touch'` (down, 80 ms, up) and prints the
// events the button got. Run: `node bench/webkit-touch-probe.mjs`. Seen with WebKitGTK 2.50.6: the window is
// exactly 390x844, but `(hover: none)` is false, maxTouchPoints 0, no `ontouchstart`, and the touch actions
// arrive as a mouse (pointerover/pointermove first, then pointerdown/click with pointerType "mouse", no touch
// events): no touch device, so no WebKit row in bench 1b.
import { createServer } from 'node:http';
import { startWebKitDriver, webkitCapabilities } from '../test/browser/webkit-driver.mjs';

const EVENTS = [
  'pointerover',
  'pointerenter',
  'pointermove',
  'pointerdown',
  'pointerup',
  'touchstart',
  'touchend',
  'mousedown',
  'mouseup',
  'click',
];
const page = `<!doctype html><meta name=viewport content="width=device-width,initial-scale=1">
<button id=b style="position:absolute;left:100px;top:100px;width:150px;height:50px">Tap</button>
<script>window.seen=[];for(const t of ${JSON.stringify(EVENTS)})b.addEventListener(t,(e)=>seen.push(t+(e.pointerType?':'+e.pointerType:'')),{passive:true})</script>`;
const server = createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const driver = await startWebKitDriver();
/** One W3C WebDriver command; its status and value. */
async function command(method, path, body) {
  const response = await fetch(`http://127.0.0.1:${driver.port}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  return { status: response.status, value: (await response.json()).value };
}
try {
  const { 'wdio:enforceWebDriverClassic': _, ...capabilities } = webkitCapabilities;
  const created = await command('POST', '/session', { capabilities: { alwaysMatch: capabilities } });
  if (created.status !== 200) throw new Error(`no session: ${JSON.stringify(created.value)}`);
  const session = (method, path, body) => command(method, `/session/${created.value.sessionId}${path}`, body);
  console.log('browser', created.value.capabilities.browserName, created.value.capabilities.browserVersion);
  console.log('set window 390x844 ->', JSON.stringify((await session('POST', '/window/rect', { width: 390, height: 844 })).value));
  await session('POST', '/url', { url: `http://127.0.0.1:${server.address().port}/` });
  const media = `return { viewport: innerWidth + 'x' + innerHeight, hoverNone: matchMedia('(hover: none)').matches, pointerCoarse: matchMedia('(pointer: coarse)').matches, maxTouchPoints: navigator.maxTouchPoints, ontouchstart: 'ontouchstart' in window }`;
  console.log('the page sees', JSON.stringify((await session('POST', '/execute/sync', { script: media, args: [] })).value));
  const tap = [
    { type: 'pointerMove', duration: 0, x: 175, y: 125 },
    { type: 'pointerDown', button: 0 },
    { type: 'pause', duration: 80 },
    { type: 'pointerUp', button: 0 },
  ];
  const acted = await session('POST', '/actions', {
    actions: [{ type: 'pointer', id: 'finger', parameters: { pointerType: 'touch' }, actions: tap }],
  });
  console.log('touch actions ->', acted.status, JSON.stringify(acted.value));
  console.log('the button got', JSON.stringify((await session('POST', '/execute/sync', { script: 'return seen', args: [] })).value));
  await session('DELETE', '');
} finally {
  await driver.stop();
  server.close();
}
