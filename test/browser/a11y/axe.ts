/**
 * axe-core in the test page and in the Link frame: loaded from web-test-runner's own server
 * (`/node_modules/axe-core/axe.min.js`), so in the frame it is a script from the Link page's own origin, which its
 * strict CSP (`script-src 'self'`) lets run. One rule set for every check of issue 49: WCAG 2.0 to 2.2 A and AA, and
 * `landmark-unique` (best practice, but the one that catches a frame's landmarks repeating the host page's).
 */

/** The WCAG tags the sweep checks. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

interface AxeResults {
  violations: Array<{ id: string; impact?: string | null; nodes: Array<{ target: unknown }> }>;
}
interface Axe {
  run(context: Document, options: Record<string, unknown>): Promise<AxeResults>;
}
type WithAxe = Window & { axe?: Axe };

const AXE_URL = '/node_modules/axe-core/axe.min.js';

/** Loads axe into `doc`'s window (once: the script sets `axe` as it runs) and returns it. */
async function axeIn(doc: Document): Promise<Axe> {
  const win = doc.defaultView as WithAxe | null;
  if (!win) throw new Error('no window to run axe in');
  if (!win.axe) {
    // Created by the frame's own document, so it runs in the frame's window, under the frame's CSP.
    const script = doc.createElement('script');
    script.src = AXE_URL;
    await new Promise<void>((resolve, reject) => {
      script.addEventListener('load', () => resolve(), { once: true });
      script.addEventListener('error', () => reject(new Error(`axe-core did not load in ${doc.URL}`)), { once: true });
      doc.head.append(script);
    });
  }
  if (!win.axe) throw new Error(`axe-core loaded in ${doc.URL} but did not start`);
  return win.axe;
}

/**
 * The violations axe finds in `doc` of the WCAG tags and `landmark-unique`, each as `rule (impact) [targets]`;
 * empty when there are none. `frames`: the host page's run looks into these frames too (axe is loaded there
 * first), so the rules that compare a page with its frame (two `main`, a banner twice) see both.
 */
export async function violations(doc: Document, frames: Document[] = []): Promise<string[]> {
  for (const frame of frames) await axeIn(frame);
  const axe = await axeIn(doc);
  const results = await axe.run(doc, {
    runOnly: { type: 'tag', values: [...WCAG_TAGS] },
    rules: { 'landmark-unique': { enabled: true } },
    iframes: frames.length > 0,
    resultTypes: ['violations'],
  });
  return results.violations.map(
    (violation) => `${violation.id} (${violation.impact ?? '?'}) ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
  );
}
