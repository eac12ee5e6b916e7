/**
 * A frame that is not the session's Link frame: served from the Link origin
 * ("another window of the right origin") and from a third origin ("a foreign
 * origin"). On the host's command it posts its share of messages at the host
 * window, valid ones included, and replies with how many it sent.
 */
import { sendPlan } from './fuzz-messages.js';
import type { FuzzCommand } from './fuzz-link.js';

window.addEventListener('message', (event) => {
  const command = event.data as FuzzCommand;
  const reply = event.ports[0];
  if (event.source !== parent || !reply || command.bench !== 'fuzz') return;
  reply.postMessage(sendPlan(command.plan, command.seed, null));
});
