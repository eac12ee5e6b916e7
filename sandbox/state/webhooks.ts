/**
 * Webhook delivery: POSTs `{ event, event_id, payload }` to the integrator's
 * URL, off the request path (the API never waits for it), retrying failed
 * attempts (network error, timeout or non-2xx) with exponential backoff.
 * Events are delivered independently; the spec does not promise an order.
 */
import { randomUUID } from 'node:crypto';
import type { SandboxWebhookEvent, SandboxWebhookEventName, SandboxWebhookPayload } from './resources.js';

/** The state of one event's delivery. */
export interface WebhookDelivery {
  readonly event: SandboxWebhookEvent;
  status: 'pending' | 'delivered' | 'failed' | 'cancelled';
  attempts: number;
  /** The last failure (HTTP status or error message), for logs and tests. */
  lastError: string | null;
}

/** The default time one attempt gets (`startSandbox`'s `webhookTimeoutMs`, the CLI's `--webhook-timeout`); why 20 s: there. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 20_000;

/** Options of {@link WebhookSender}. */
export interface WebhookSenderOptions {
  /** Where to POST; null sends nothing (events are still recorded). */
  readonly url: string | null;
  /** Delay before the first retry; doubles each time. */
  readonly retryBaseMs: number;
  /** Attempts per event, the first included. */
  readonly maxAttempts: number;
  /** Time allowed for one attempt. */
  readonly timeoutMs: number;
  readonly log: (line: string) => void;
}

/** Sends webhook events with retries; never throws into its caller. */
export class WebhookSender {
  /** Every delivery, in the order events were emitted. */
  readonly deliveries: WebhookDelivery[] = [];
  readonly #options: WebhookSenderOptions;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #aborts = new Set<AbortController>();
  /** Who waits for which delivery to leave `pending` (see {@link whenSettled}). */
  readonly #waiters = new Map<WebhookDelivery, (() => void)[]>();
  #closed = false;

  constructor(options: WebhookSenderOptions) {
    this.#options = options;
  }

  /** Builds the envelope for `name`; the caller records it and passes it to {@link send}. */
  static envelope<N extends SandboxWebhookEventName>(name: N, payload: SandboxWebhookPayload<N>): SandboxWebhookEvent {
    return { event: name, event_id: randomUUID(), payload } as SandboxWebhookEvent;
  }

  /** Queues one event for delivery and returns at once. */
  send(event: SandboxWebhookEvent): void {
    if (this.#options.url === null || this.#closed) return;
    const delivery: WebhookDelivery = { event, status: 'pending', attempts: 0, lastError: null };
    this.deliveries.push(delivery);
    this.#schedule(delivery, 0);
  }

  /** Stops retries and aborts attempts in flight. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const abort of this.#aborts) abort.abort();
    for (const delivery of this.deliveries) if (delivery.status === 'pending') this.#settle(delivery, 'cancelled');
  }

  /**
   * Resolves with the delivery once it has left `pending` (delivered, failed or cancelled; at once
   * when it already has), so tests and tools wait for the outcome instead of polling.
   */
  whenSettled(delivery: WebhookDelivery): Promise<WebhookDelivery> {
    if (delivery.status !== 'pending') return Promise.resolve(delivery);
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(delivery) ?? [];
      waiters.push(() => resolve(delivery));
      this.#waiters.set(delivery, waiters);
    });
  }

  #settle(delivery: WebhookDelivery, status: 'delivered' | 'failed' | 'cancelled'): void {
    delivery.status = status;
    const waiters = this.#waiters.get(delivery) ?? [];
    this.#waiters.delete(delivery);
    for (const resolve of waiters) resolve();
  }

  #schedule(delivery: WebhookDelivery, delayMs: number): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#attempt(delivery);
    }, delayMs);
    this.#timers.add(timer);
  }

  async #attempt(delivery: WebhookDelivery): Promise<void> {
    if (this.#closed) return;
    const { url, maxAttempts, retryBaseMs, timeoutMs, log } = this.#options;
    delivery.attempts += 1;
    const abort = new AbortController();
    this.#aborts.add(abort);
    let timedOut = false;
    const timeout = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, timeoutMs);
    let failure: string | null = null;
    try {
      const response = await fetch(url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'payroll-link-sandbox-webhooks/1' },
        body: JSON.stringify(delivery.event),
        signal: abort.signal,
        redirect: 'manual',
      });
      await response.body?.cancel();
      if (!response.ok) failure = `HTTP ${response.status}`;
    } catch (error) {
      // fetch's own words for our abort ("This operation was aborted") say neither why nor what to change.
      failure = timedOut
        ? `no answer within ${timeoutMs} ms (the sandbox's webhook timeout: --webhook-timeout, SANDBOX_WEBHOOK_TIMEOUT_MS or webhookTimeoutMs)`
        : error instanceof Error
          ? error.message
          : String(error);
    } finally {
      clearTimeout(timeout);
      this.#aborts.delete(abort);
    }
    if (this.#closed) return;
    const what = `webhook ${delivery.event.event} ${delivery.event.event_id}`;
    if (failure === null) {
      delivery.lastError = null;
      this.#settle(delivery, 'delivered');
      log(`${what} delivered (attempt ${delivery.attempts})`);
      return;
    }
    delivery.lastError = failure;
    if (delivery.attempts >= maxAttempts) {
      this.#settle(delivery, 'failed');
      log(`${what} failed after ${delivery.attempts} attempts: ${failure}`);
      return;
    }
    const delayMs = retryDelayMs(retryBaseMs, delivery.attempts);
    log(`${what} attempt ${delivery.attempts} failed (${failure}); retrying in ${delayMs} ms`);
    this.#schedule(delivery, delayMs);
  }
}

/** Longest wait between two attempts: an hour, as the largest `webhookRetryBaseMs` allows. */
export const MAX_RETRY_DELAY_MS = 3_600_000;

/**
 * The wait after failed attempt `attempt` (1 for the first): `baseMs`, doubling each time, at most
 * {@link MAX_RETRY_DELAY_MS}. Uncapped, 20 attempts on a large base would pass setTimeout's limit
 * (about 24.8 days), which Node turns into 1 ms: a storm of retries instead of a long wait.
 */
export const retryDelayMs = (baseMs: number, attempt: number): number => Math.min(baseMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);

/** Records an event and queues its delivery; what the API and the job runner call. */
export type Emit = <N extends SandboxWebhookEventName>(name: N, payload: SandboxWebhookPayload<N>) => SandboxWebhookEvent;
