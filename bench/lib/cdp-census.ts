/**
 * What the DevTools Protocol can tell about a page's leftovers: JS heap after
 * garbage collection, DOM counters, and event listeners on window and on the
 * whole document (shadow roots included).
 */
import type { CDPSession } from 'playwright-core';

/** One snapshot of the page's memory and listeners. */
export interface Snapshot {
  /** JS heap in use after a full GC, in bytes. */
  heapUsed: number;
  /** From `Memory.getDOMCounters`: documents, nodes and JS event listeners of the renderer. */
  documents: number;
  nodes: number;
  jsEventListeners: number;
  /** `DOMDebugger.getEventListeners` on `window`, by event type. */
  windowListeners: Record<string, number>;
  /** The same on `document` and its whole subtree, shadow roots included. */
  documentListeners: Record<string, number>;
}

const byType = (listeners: Array<{ type: string }>) => {
  const counts: Record<string, number> = {};
  for (const { type } of listeners) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
};

/** Sum of a by-type count. */
export const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

/** Collects garbage (twice: the first pass can leave finalizer-held objects) and takes a snapshot. */
export async function snapshot(cdp: CDPSession): Promise<Snapshot> {
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const counters = await cdp.send('Memory.getDOMCounters');
  const windowObject = await cdp.send('Runtime.evaluate', { expression: 'window' });
  const documentObject = await cdp.send('Runtime.evaluate', { expression: 'document' });
  const onWindow = await cdp.send('DOMDebugger.getEventListeners', { objectId: windowObject.result.objectId! });
  const onDocument = await cdp.send('DOMDebugger.getEventListeners', {
    objectId: documentObject.result.objectId!,
    depth: -1,
    pierce: true,
  });
  await cdp.send('Runtime.releaseObjectGroup', { objectGroup: '' }).catch(() => {});
  return {
    heapUsed: usedSize,
    documents: counters.documents,
    nodes: counters.nodes,
    jsEventListeners: counters.jsEventListeners,
    windowListeners: byType(onWindow.listeners),
    documentListeners: byType(onDocument.listeners),
  };
}
