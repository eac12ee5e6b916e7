/**
 * The fuzz bench's stand-in for the hosted Link page (outside the widget),
 * served from the Link origin. It speaks the real protocol: `ready`, then it
 * takes `init` with the session's port. On the host's `fuzz` command it sends
 * its share of broken messages over that port and over `window.parent`; on
 * `finish` it sends a normal login → success → exit, so the bench can check
 * the session still completes.
 */
import { EventMessageSchema, InitMessageSchema, PROTOCOL_VERSION, type EventMessage } from '../../src/protocol.js';
import { sendPlan, type FuzzPlan } from './fuzz-messages.js';

/** A command from the bench host, with a reply port in `ports[0]`. */
export type FuzzCommand = { bench: 'fuzz'; seed: number; plan: FuzzPlan } | { bench: 'finish' };

let session: { port: MessagePort; linkTokenId: string } | null = null;
const ids = { accountId: '3f0c2a3e-5d6b-4c8d-9e0f-1a2b3c4d5e6f', platformId: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' };

window.addEventListener('message', (event) => {
  if (event.source !== parent) return;
  const init = InitMessageSchema.safeParse(event.data);
  if (init.success && event.ports[0] && !session) {
    session = { port: event.ports[0], linkTokenId: init.data.token.slice(4) };
    return;
  }
  const command = event.data as FuzzCommand;
  const reply = event.ports[0];
  if (!session || !reply) return;
  if (command.bench === 'fuzz') reply.postMessage(sendPlan(command.plan, command.seed, session.port));
  if (command.bench === 'finish') {
    const { port, linkTokenId } = session;
    const send = (message: EventMessage) => port.postMessage(EventMessageSchema.parse(message));
    send({ type: 'payroll-link:event', name: 'login', payload: { ...ids, linkTokenId } });
    send({
      type: 'payroll-link:event',
      name: 'success',
      payload: {
        ...ids,
        linkTokenId,
        jobId: '9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
        job: 'direct_deposit_switch',
        params: { amount: 100 },
      },
    });
    send({ type: 'payroll-link:event', name: 'exit', payload: { reason: 'completed', error: null, accountId: ids.accountId } });
    reply.postMessage({ window: 0, port: 3 });
  }
});
parent.postMessage({ type: 'payroll-link:ready', version: PROTOCOL_VERSION }, '*');
