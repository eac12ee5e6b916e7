// Runs first: collects what the packaging test reads (see ../shared/harness.ts for the shape),
// including any Content-Security-Policy violation, since the test serves this page under a strict policy.
window.payrollLinkSeen = [];
window.payrollLinkViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.payrollLinkViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
