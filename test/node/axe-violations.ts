/**
 * axe-core run inside a page or frame of a Playwright browser, for the Node
 * tests that drive the real Link page: one place that loads axe and turns its
 * violations into readable lines.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Frame } from 'playwright-core';

let axeSource: Promise<string> | undefined;

/**
 * Each axe violation in `frame`'s document as `rule: [targets]`; empty when there is none. In a child frame (the
 * Link page in the widget's iframe) `landmark-one-main` does not apply: the host page holds the page's one `main`,
 * and a frame's own would repeat it (the duplicate that rule and `landmark-unique` aim at).
 */
export async function axeViolations(frame: Frame): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, which the Link page's strict CSP does not govern; no CSP bypass needed.
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(await axeSource);
  return frame.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(context: Document, options: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }>;
        };
      }
    ).axe;
    const results = await axe.run(document, { rules: { 'landmark-one-main': { enabled: window.top === window } } });
    return results.violations.map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
  });
}
