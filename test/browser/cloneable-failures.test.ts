import { expect } from '@open-wc/testing';

// The guard in cloneable-failures.ts (loaded by the test page): without it, each of these failures would hang its
// whole file until testsFinishTimeout instead of failing.
describe('a failed assertion about DOM nodes', () => {
  function failure(assertion: () => void): Error & { actual?: unknown; expected?: unknown } {
    try {
      assertion();
    } catch (error) {
      return error as Error;
    }
    throw new Error('the assertion passed');
  }

  it('can be sent to the test runner: its values become text that names the nodes', () => {
    const frame = document.createElement('iframe');
    frame.id = 'link';
    const error = failure(() => expect(document.body as Element, 'focus').to.equal(frame));
    expect(() => structuredClone(error)).not.to.throw();
    expect(error.message).to.contain('focus');
    expect([error.actual, error.expected]).to.deep.equal(['<body>', '<iframe id="link">']);
  });

  it('keeps values that can be sent as they are', () => {
    const error = failure(() => expect({ reason: 'error' }).to.deep.equal({ reason: 'user_closed' }));
    expect([error.actual, error.expected]).to.deep.equal([{ reason: 'error' }, { reason: 'user_closed' }]);
  });

  it('covers a node expected to be gone (`null`), and nodes inside arrays and plain objects', () => {
    const gone = failure(() => expect(document.createElement('div')).to.equal(null));
    expect(() => structuredClone(gone)).not.to.throw();
    expect(gone.actual).to.equal('<div>');
    const nested = failure(() =>
      expect([document.createElement('p'), null, { frame: document.createElement('iframe'), height: 640 }]).to.deep.equal([
        null,
        null,
        null,
      ]),
    );
    expect(() => structuredClone(nested)).not.to.throw();
    expect(nested.actual).to.deep.equal(['<p>', null, { frame: '<iframe>', height: 640 }]);
  });
});
