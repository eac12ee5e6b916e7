/**
 * How long a token fetch that failed (after its retries) stands for its source: a sign of intent does not fetch
 * again meanwhile, and a session handed that failed fetch (a token fetched ahead) reports it instead of calling
 * the failing endpoint again at once (a hover and a click made six calls to an endpoint answering 500). A module
 * of its own: the element reads it before intent, without the token fetch, and the fetch reads it too.
 */
export const TOKEN_FAILURE_MEMORY_MS = 10_000;
