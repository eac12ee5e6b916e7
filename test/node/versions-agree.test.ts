/**
 * The sandbox (playing the service) and the example backend (playing the
 * integrator) each keep their own list of known Service-Version dates, as two
 * separate systems would: the example must stay copyable on its own. This test
 * is what keeps the two lists, and the required_jobs cut-off, in step.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KNOWN_VERSIONS, LAST_REQUIRED_JOBS_VERSION as SANDBOX_CUTOFF } from '../../sandbox/http/versions.js';
import { LAST_REQUIRED_JOBS_VERSION as EXAMPLE_CUTOFF, SERVICE_VERSIONS } from '../../src/server/client/service-version.js';

test('the sandbox and the example backend know the same Service-Version dates and the same required_jobs cut-off', () => {
  assert.deepEqual([...SERVICE_VERSIONS], [...KNOWN_VERSIONS]);
  assert.equal(EXAMPLE_CUTOFF, SANDBOX_CUTOFF);
});
