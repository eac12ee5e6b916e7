/**
 * A refused window message's data is not read unless the debug hook reads it:
 * the browser deserializes a message's data on first access, so reading it
 * just to throw it away made every large message from a foreign window cost
 * the host page (found by the message-fuzz bench in bench/).
 */
import { expect } from '@open-wc/testing';
import { openLink, type DroppedMessage } from '../../src/core/index.js';
import { PROTOCOL_VERSION } from '../../src/protocol.js';
import { fakeLinkUrl } from './helpers.js';

/** A message event that counts how often its data is read. */
class CountingMessageEvent extends MessageEvent<unknown> {
  reads = 0;
  override get data(): unknown {
    this.reads++;
    return super.data;
  }
}

const foreign = (data: unknown) => new CountingMessageEvent('message', { data, origin: 'https://attacker.example' });

describe('dropped messages', () => {
  it('are counted without reading their data when there is no debug hook', async () => {
    const link = openLink({ linkUrl: await fakeLinkUrl('idle'), fetchToken: async () => `tok.${crypto.randomUUID()}` });
    const event = foreign({ type: 'payroll-link:ready', version: PROTOCOL_VERSION, padding: 'x'.repeat(1000) });
    const before = link.droppedMessages;
    window.dispatchEvent(event);
    expect(link.droppedMessages).to.equal(before + 1);
    expect(event.reads).to.equal(0);
    link.close();
    await link.closed;
  });

  it('hand the hook their data, read only when the hook reads it', async () => {
    const dropped: DroppedMessage[] = [];
    const link = openLink({
      linkUrl: await fakeLinkUrl('idle'),
      fetchToken: async () => `tok.${crypto.randomUUID()}`,
      onDroppedMessage: (message) => dropped.push(message),
    });
    const data = { type: 'payroll-link:ready', version: PROTOCOL_VERSION };
    const event = foreign(data);
    window.dispatchEvent(event);
    const ours = dropped.filter((d) => d.reason === 'origin').at(-1)!;
    expect(event.reads).to.equal(0);
    expect(ours.data).to.equal(data);
    expect(event.reads).to.equal(1);
    link.close();
    await link.closed;
  });
});
