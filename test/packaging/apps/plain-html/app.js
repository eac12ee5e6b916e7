// The integrator's page script: the element's callback properties, as the README shows them.
const countFrames = (root) =>
  [...root.querySelectorAll('*')].reduce(
    (n, el) => n + (el.shadowRoot ? countFrames(el.shadowRoot) : 0),
    root.querySelectorAll('iframe').length,
  );
const record = (kind, detail) => window.payrollLinkSeen.push({ kind, detail, frames: countFrames(document) });

const link = document.querySelector('payroll-link');
link.onLogin = (detail) => record('login', detail);
link.onSuccess = ({ accountId, jobId, linkTokenId }) => record('success', { accountId, jobId, linkTokenId });
link.onExit = (detail) => record('exit', detail);
link.onError = (detail) => record('error', detail);
link.addEventListener('link-open', (event) => record('open', event.detail));
