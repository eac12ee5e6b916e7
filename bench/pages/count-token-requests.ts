/**
 * Counts the page's requests to the bench's token endpoint (`/token`): each one mints a billable token at the
 * service. Wraps `window.fetch`, which the element's token fetch goes through; returns the count so far.
 */
export function countTokenRequests(): () => number {
  let requests = 0;
  const { fetch } = window;
  window.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (url.pathname === '/token') requests++;
    return fetch(input, init);
  };
  return () => requests;
}
