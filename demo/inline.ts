// The demo's inline page: an onboarding step with the Link flow embedded in it (`display="inline"`).
import '../src/index.js';
import type { PayrollLink, PayrollLinkEventName } from '../src/index.js';
import { addTimelineEntry } from './timeline.js';

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const timeline = byId<HTMLOListElement>('timeline');
const status = byId<HTMLParagraphElement>('status');
const next = byId<HTMLButtonElement>('continue');
const again = byId<HTMLButtonElement>('again');

// Set in this module's first task: the element starts its session once it is in view, after its first update.
const link = byId<PayrollLink>('inline-demo');
link.linkUrl = import.meta.env.DEMO_LINK_URL ?? 'http://127.0.0.1:4010/link';
// The demo's signed-in user (a demo rule: a cookie names the user, as on the main page).
document.cookie = 'demo_user=demo-ana; path=/; SameSite=Strict';
link.endUserId = 'demo-ana';

const EVENTS: PayrollLinkEventName[] = ['link-open', 'link-login', 'link-success', 'link-error', 'link-event', 'link-exit'];
for (const name of EVENTS) document.addEventListener(name, (event) => addTimelineEntry(timeline, 'event', name, event.detail));

link.onSuccess = (detail) => {
  addTimelineEntry(timeline, 'callback', 'onSuccess', detail);
  status.textContent = `Connected account ${detail.accountId}.`;
};
link.onExit = (detail) => {
  addTimelineEntry(timeline, 'callback', 'onExit', detail);
  // On a final screen the flow stays there; the step goes on with the page's own button.
  next.disabled = detail.reason !== 'completed';
  again.hidden = detail.reason === 'completed';
  if (detail.reason !== 'completed') status.textContent = `Session ended: ${detail.reason.replace('_', ' ')}. Start again below.`;
};
// show() starts a new session in place of the last one (its final screen, if any).
again.addEventListener('click', () => {
  again.hidden = true;
  void link.show();
});
next.addEventListener('click', () => (status.textContent = 'Step 4 of 4 would come next.'));
