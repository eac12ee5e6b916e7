/**
 * The service API's answers in `fields: 'spec'` mode: each resource of a success (each item of a list) cut down to
 * the fields `SPEC_FIELDS` keeps by `specResource`, and no body at all where the spec shows none. The envelope
 * (`data`, `meta`) and the spec's error bodies pass whole. Applied where an endpoint's route answers
 * (`endpoint-route.ts`), so the sandbox's own routes (the Link page's API, the triggers) keep their answers.
 */
import type { PayrollApiEndpoint } from 'payroll-link/server';
import { specFieldsOfAnswer } from '../state/spec-fields.js';
import { specResource } from '../state/spec-projection.js';
import type { SandboxResponse } from './http-types.js';

/**
 * How `row`'s answers leave in spec mode. A row that may answer nothing (`one-or-nothing`: the spec shows no answer,
 * as for the disconnect, spec line 135) answers 204, the spec's "Processed, no content returned" (line 214).
 */
export const specAnswerOf = (row: PayrollApiEndpoint): ((response: SandboxResponse) => SandboxResponse) => {
  const fields = specFieldsOfAnswer(row.answer);
  return (response) => {
    if (response.status < 200 || response.status > 299) return response;
    if (row.returns === 'one-or-nothing') {
      const headers = { ...response.headers };
      delete headers['content-type'];
      return { status: 204, headers, body: '' };
    }
    const text = typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body);
    const envelope = JSON.parse(text) as { data: unknown };
    const data = Array.isArray(envelope.data)
      ? envelope.data.map((item) => specResource(fields, item))
      : specResource(fields, envelope.data);
    return { ...response, body: JSON.stringify({ ...envelope, data }) };
  };
};
