'use client';

import { useEffect } from 'react';

/**
 * Starts the test's recorder in the browser (the harness touches `window`, so the server must
 * not evaluate it). Renders nothing; the test waits for the recorder before it clicks.
 */
export function ObserveSession() {
  useEffect(() => {
    void import('../../observe-session').then(({ observeSession }) => observeSession());
  }, []);
  return null;
}
