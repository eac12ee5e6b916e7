// Loaded by the test page before the test framework (see testRunnerHtml in web-test-runner.config.mjs).
//
// web-test-runner (@web/dev-server-core 1.0.1) sends a failed test's error to Node through structuredClone. A chai
// AssertionError whose `actual` or `expected` is a DOM node cannot be cloned, so the send throws inside the page and
// the whole file then hangs until testsFinishTimeout (4 minutes) with no message at all: a plain failure such as
// `expect(document.activeElement).to.equal(frame)` looked like a stuck browser (modernweb-dev/web#2967,
// open-wc/open-wc#2880). This turns such values into text before the error leaves chai, so a failure reads as one.
// (`assert.fail(actual, expected)` and `expect.fail` build their error without chai's `assert`: not covered.)

// `/pure`: the same chai as the tests', without the fixture cleanup that @open-wc/testing registers as it loads:
// this runs before mocha is set up, where that registration would be lost and fixtures would outlive their tests.
// Its typings omit the `chai` it exports (@open-wc/testing 5.0.0), hence the cast.
import type { chai as Chai } from '@open-wc/testing';
import * as pure from '@open-wc/testing/pure';

const { chai } = pure as unknown as { chai: typeof Chai };

/** `value` as it is when it can be cloned; else with each node in it (in arrays and plain objects too) as text. */
function cloneable(value: unknown): unknown {
  try {
    structuredClone(value);
    return value;
  } catch {
    if (value instanceof Element) return `<${value.localName}${value.id ? ` id="${value.id}"` : ''}>`;
    if (value instanceof Node) return value.nodeName;
    if (Array.isArray(value)) return value.map(cloneable);
    if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cloneable(item)]));
    }
    return Object.prototype.toString.call(value);
  }
}

chai.use(({ Assertion, AssertionError }) => {
  const assert = Assertion.prototype.assert;
  Assertion.prototype.assert = function (this: Chai.AssertionStatic, ...args: Parameters<typeof assert>) {
    try {
      assert.apply(this, args);
    } catch (error) {
      if (error instanceof AssertionError) {
        const failure = error as Error & { actual?: unknown; expected?: unknown };
        failure.actual = cloneable(failure.actual);
        failure.expected = cloneable(failure.expected);
      }
      throw error;
    }
  };
});
